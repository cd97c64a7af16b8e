import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { contentOf, fetchBytes } from "./blob-content";
import { accountClient, type EmulatorSuite, emulatorSuite } from "../harness/emulator-env";
import type { ServiceSuite } from "../harness/service-suite";
import type { ProgramStack, ProgramStackOptions } from "../harness/stack";

/** The prefix of the folder's objects against the emulator. */
export const FOLDER_PREFIX = "site";

/** Where the program's folder goes: its objects' prefix, and the service's URLs for an explicit provider. */
export interface FolderPlace {
  prefix: string;
  platformUrl: string;
  blobUrl: string;
}

/**
 * How the program declares its one folder, "site": directory "public" of the project, the place's
 * prefix, expireDays 30, its `urls` exported as `urls`. `secretDirectory`: the directory given as
 * a secret; `viaBob`: the folder given the explicit provider `bob`, declared with its key from the
 * secret config `bobKey` and the place's URLs.
 */
export interface FolderShape {
  secretDirectory?: boolean;
  viaBob?: boolean;
}

export interface FolderProgram extends ProgramStack {
  setFolder(shape: FolderShape): void;
}

/**
 * The life of a BlobFolder declared in a program of another language than TypeScript (the folder of
 * docs/resources/blob-folder.md's examples): the native plugin's `construct` declares one native
 * BlobObject per file, with the names, options and messages of the TypeScript SDK's component.
 * Defines the tests of the calling file; `open` makes the stack from the first shape. `service` is
 * where it runs: the in-process emulator (prefix FOLDER_PREFIX) unless given, with `prefix`
 * (tests/live gives the live service's and the run's prefix); the folder given another account's
 * provider is proved on the emulator only, with its second account.
 */
export function blobFolderLifecycle<S extends ServiceSuite = EmulatorSuite>(
  open: (
    first: FolderShape,
    place: FolderPlace,
    options: Omit<ProgramStackOptions, "program">,
  ) => Promise<FolderProgram>,
  service?: { suite: () => S; prefix: string },
): void {
  // Without `service`, S is its default, EmulatorSuite: the one case the cast covers.
  const suite = (service?.suite ?? emulatorSuite)() as S;
  const prefix = service?.prefix ?? FOLDER_PREFIX;
  const objectName = new RegExp(`^[^/]+/${prefix}/(\\w+?)_[^_]+$`);

  let program: FolderProgram;

  const files: Record<string, string> = {
    "index.html": contentOf("index", 1500),
    "css/site.css": contentOf("css", 2000),
    "data/menu.json": contentOf("menu", 1100),
  };

  function write(relative: string, content: string) {
    const file = path.join(program.workDir, "public", relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }

  async function urls(): Promise<Record<string, string>> {
    return (await program.stack.outputs()).urls.value;
  }

  const nameOf = (id: string) => objectName.exec(id)?.[1] ?? id;
  const byName = (ids: string[]) => new Map(ids.map((id) => [nameOf(id), id]));

  /**
   * The account's objects under the prefix, by name (an id is <account>/<prefix>/<name>_<hash>.<ext>),
   * listed afresh once a listing shows the names a change should have left.
   */
  async function stored(expected: string[]): Promise<Map<string, string>> {
    const names = (ids: string[]) => ids.map(nameOf).sort();
    await suite.pastListCache(prefix, (ids) => JSON.stringify(names(ids)) === JSON.stringify([...expected].sort()));
    return byName((await suite.api.listAllObjects(prefix)).map((object) => object.id));
  }

  async function mutatingRequests(): Promise<string[]> {
    return (await suite.log.requests()).filter((e) => e.method !== "GET").map((e) => e.route);
  }

  /** Each object's resource in state: its name, type and parent's type. */
  async function children(): Promise<string[]> {
    const resources = await program.resources();
    const typeOf = new Map(resources.map((resource) => [resource.urn, resource.type]));
    return resources
      .filter((resource) => resource.type === "squarecloud:index:BlobObject")
      .map((resource) => `${resource.urn.split("::").pop()} < ${typeOf.get(String(resource.parent))}`)
      .sort();
  }

  beforeAll(async () => {
    const config = suite.config();
    const place = {
      prefix,
      platformUrl: String(config["squarecloud:platformUrl"]?.value),
      blobUrl: String(config["squarecloud:blobUrl"]?.value),
    };
    program = await open({}, place, { config });
    suite.keep(program);
  });

  beforeEach(async () => {
    await suite.log.clearRequests();
  });

  test("a directory that does not exist is refused at preview with the TypeScript path's message, relative to the project directory, and no request", async () => {
    const failure = await program.stack.preview().then(
      () => undefined,
      (err: Error) => err,
    );
    const projectDir = realpathSync(program.workDir);
    expect(failure?.message).toContain(
      `BlobFolder: directory must name an existing directory (relative to the project directory ${projectDir}), got "public"`,
    );
    expect(await suite.log.requests()).toEqual([]);
  });

  test("a directory given as a secret is refused at preview: the files are listed when the folder is declared", async () => {
    program.setFolder({ secretDirectory: true });
    try {
      const failure = await program.stack.preview().then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failure?.message).toContain(
        "BlobFolder: directory must be a plain path, known when the program runs (not a secret or another resource's output)",
      );
      expect(await suite.log.requests()).toEqual([]);
    } finally {
      program.setFolder({});
    }
  });

  test("two files making one object name are refused at preview with the TypeScript path's message and no request", async () => {
    for (const [relative, content] of Object.entries(files)) write(relative, content);
    write("css_site.css", contentOf("clash", 1024));
    try {
      const failure = await program.stack.preview().then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failure?.message).toContain(
        'BlobFolder "public": the files "css/site.css" and "css_site.css" both make the object name "css_site_css" (names keep only a-z, A-Z, 0-9 and _); rename one of them',
      );
      expect(await suite.log.requests()).toEqual([]);
    } finally {
      rmSync(path.join(program.workDir, "public", "css_site.css"));
    }
  });

  test("up uploads one object per file, named from its path and a child of the folder; urls maps each path to the URL serving its bytes", async () => {
    const up = await program.stack.up();
    // The stack, the folder and its three objects.
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const first = ["css_site_css", "data_menu_json", "index_html"];
    expect([...(await stored(first)).keys()].sort()).toEqual(first);
    expect(await children()).toEqual([
      "site-css_site_css < squarecloud:index:BlobFolder",
      "site-data_menu_json < squarecloud:index:BlobFolder",
      "site-index_html < squarecloud:index:BlobFolder",
    ]);
    // Every object has the folder's options.
    const options = (await program.resources())
      .filter((resource) => resource.type === "squarecloud:index:BlobObject")
      .map(({ outputs }) => [outputs?.prefix, outputs?.expireDays]);
    expect(options).toEqual([...Array(3)].map(() => [prefix, 30]));

    const published = await urls();
    expect(Object.keys(published).sort()).toEqual(Object.keys(files).sort());
    for (const [relative, content] of Object.entries(files))
      expect((await fetchBytes(published[relative])).body.toString()).toBe(content);
  });

  test("a preview of the unchanged folder has no changes and makes no change on the service", async () => {
    expect((await program.stack.preview()).changeSummary).toEqual({ same: 5 });
    expect(await mutatingRequests()).toEqual([]);
  });

  test("a new file creates one object and a changed file replaces its object; the others stay as they are", async () => {
    const before = await urls();
    const menu = contentOf("menu-v2", 1200);
    const notes = contentOf("notes", 1300);
    write("data/menu.json", menu);
    write("notes.txt", notes);

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, replace: 1, same: 4 });
    expect((await mutatingRequests()).sort()).toEqual(["DELETE /v1/objects", "POST /v1/objects", "POST /v1/objects"]);

    const after = await urls();
    expect({ index: after["index.html"], css: after["css/site.css"] }).toEqual({
      index: before["index.html"],
      css: before["css/site.css"],
    });
    expect(after["data/menu.json"]).not.toBe(before["data/menu.json"]);
    expect((await fetchBytes(after["data/menu.json"])).body.toString()).toBe(menu);
    expect((await fetchBytes(after["notes.txt"])).body.toString()).toBe(notes);
    expect((await fetchBytes(before["data/menu.json"])).status).toBe(404);
    const four = ["css_site_css", "data_menu_json", "index_html", "notes_txt"];
    expect([...(await stored(four)).keys()].sort()).toEqual(four);
  });

  test("refresh drops an object deleted outside Pulumi and keeps the others; the next up uploads it again", async () => {
    const gone = (await stored(["css_site_css", "data_menu_json", "index_html", "notes_txt"])).get(
      "index_html",
    ) as string;
    await suite.api.deleteObject(gone);
    await suite.pastListCache(prefix, (ids) => !ids.includes(gone));

    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 5 });
    expect(await children()).toEqual([
      "site-css_site_css < squarecloud:index:BlobFolder",
      "site-data_menu_json < squarecloud:index:BlobFolder",
      "site-notes_txt < squarecloud:index:BlobFolder",
    ]);

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 5 });
    expect((await fetchBytes((await urls())["index.html"])).body.toString()).toBe(files["index.html"]);
  });

  test("a file under 1 KiB is refused at preview at its object, with BlobObject's message, and no request", async () => {
    write("tiny.txt", "twelve bytes");
    try {
      const failure = await program.stack.preview().then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failure?.message).toContain(
        'must be from 1 KiB (1024 bytes) to 100 MB (100000000 bytes), got "public/tiny.txt" of 12 bytes',
      );
      expect(await mutatingRequests()).toEqual([]);
    } finally {
      rmSync(path.join(program.workDir, "public", "tiny.txt"));
    }
  });

  test("destroy deletes every object of the folder", async () => {
    expect((await program.stack.destroy()).summary.resourceChanges).toEqual({ delete: 6 });
    expect(await stored([])).toEqual(new Map());
    expect(await program.resources()).toEqual([]);
  });

  if (service === undefined) explicitProvider(suite as unknown as EmulatorSuite, () => program);
}

/** On the emulator: the folder given bob's provider uploads with his account, the clock moved past the list cache. */
function explicitProvider(suite: EmulatorSuite, program: () => FolderProgram) {
  const PAST_LIST_CACHE = 31_000;
  async function storedBy(account: number): Promise<string[]> {
    await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
    const client = accountClient(suite.emulator, suite.emulator.accounts[account]);
    const objects = await client.listAllObjects(FOLDER_PREFIX).finally(() => client.close());
    return objects.map((object) => /^[^/]+\/[^/]+\/(\w+?)_[^_]+$/.exec(object.id)?.[1] ?? object.id).sort();
  }

  test("a folder given an explicit provider uploads its objects with that provider's account", async () => {
    await program().stack.setConfig("bobKey", { value: suite.emulator.accounts[1].apiKey, secret: true });
    program().setFolder({ viaBob: true });

    await program().stack.up();
    expect(await storedBy(1)).toEqual(["css_site_css", "data_menu_json", "index_html", "notes_txt"]);
    expect(await storedBy(0)).toEqual([]);

    await program().stack.destroy();
    expect(await storedBy(1)).toEqual([]);
  });
}
