import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { SquareCloudClient } from "../../../provider/client";
import { contentOf, fetchBytes } from "./blob-content";
import { type EmulatorSuite, emulatorSuite } from "../harness/emulator-env";
import type { ServiceSuite } from "../harness/service-suite";
import type { ProgramStack, ProgramStackOptions } from "../harness/stack";

/** Past the emulator's 30 s list cache, on its clock. */
const PAST_LIST_CACHE_MS = 31_000;

/** The prefix of the synced folder's objects against the emulator. */
export const SYNCED_PREFIX = "synced";

/** Where the program's folder goes: its objects' prefix; and a client of the account, for what a test does beside it. */
export interface SyncedPlace {
  prefix: string;
  api: SquareCloudClient;
}

/**
 * How the program declares its one folder, "site": BlobFolder with `managedObjects: false`,
 * directory "public" of the project, the place's prefix unless `noPrefix`, its `urls` exported
 * as `urls`.
 */
export interface SyncedShape {
  noPrefix?: boolean;
}

export interface SyncedProgram extends ProgramStack {
  setFolder(shape: SyncedShape): Promise<void> | void;
  /** The folder's `urls` among the stack's outputs. */
  urls(): Promise<Record<string, string>>;
}

/**
 * The life of a BlobFolder in synced mode, the same in every language: one BlobFolderSync resource
 * holds the files, an update uploads only what is new or changed and deletes what left, a refresh
 * drops what was deleted behind Pulumi's back, a lost upload answer is settled from the listing.
 * Defines the tests of the calling file on one stack; `open` makes it from the first shape.
 * `service` is where it runs: the in-process emulator (prefix SYNCED_PREFIX) unless given, with
 * `prefix` (tests/live gives the live service's and the run's prefix); the lost upload answer is
 * proved on the emulator only, where a fault can lose it.
 */
export function syncedFolderLifecycle<S extends ServiceSuite = EmulatorSuite>(
  open: (
    first: SyncedShape,
    place: SyncedPlace,
    options: Omit<ProgramStackOptions, "program">,
  ) => Promise<SyncedProgram>,
  service?: { suite: () => S; prefix: string },
): void {
  // Without `service`, S is its default, EmulatorSuite: the one case the cast covers.
  const suite = (service?.suite ?? emulatorSuite)() as S;
  const prefix = service?.prefix ?? SYNCED_PREFIX;
  const emulator = service === undefined ? (suite as unknown as EmulatorSuite) : undefined;
  const SYNC_TYPE = "squarecloud:index:BlobFolderSync";

  let program: SyncedProgram;
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

  const urls = () => program.urls();

  /** The ids of the account's objects under the prefix, listed afresh once a listing shows `expected`. */
  async function stored(expected: string[]): Promise<string[]> {
    const same = (ids: string[]) => JSON.stringify([...ids].sort()) === JSON.stringify([...expected].sort());
    await suite.pastListCache(prefix, same);
    return (await suite.api.listAllObjects(prefix)).map((object) => object.id).sort();
  }

  /** The objects the state holds, listed afresh on the service. */
  async function storedAsInState(): Promise<string[]> {
    const inState = Object.values(await stateObjects()).sort();
    return stored(inState);
  }

  async function mutatingRequests(): Promise<string[]> {
    return (await suite.log.requests())
      .filter((e) => e.method !== "GET")
      .map((e) => e.route)
      .sort();
  }

  /** The set's state: relative path -> object id. */
  async function stateObjects(): Promise<Record<string, string>> {
    const resources = await program.resources();
    const set = resources.find((resource) => resource.type.endsWith("BlobFolderSync"));
    return (set?.outputs?.objects ?? {}) as Record<string, string>;
  }

  async function previewFailure(): Promise<string | undefined> {
    return program.stack.preview().then(
      () => undefined,
      (err: Error) => err.message,
    );
  }

  beforeAll(async () => {
    program = await open({}, { prefix, api: suite.api }, { config: suite.config() });
    suite.keep(program);
    for (const [relative, content] of Object.entries(files)) write(relative, content);
  });

  beforeEach(async () => {
    await suite.log.clearRequests();
  });

  test("bad input is refused at preview, naming the resource, the field, the rule and the value, with no change on the service", async () => {
    write("notes.txt", "twelve bytes");
    write("tool.exe", contentOf("tool", 1024));
    await program.setFolder({ noPrefix: true });
    try {
      const failure = await previewFailure();
      expect(failure).toMatch(
        /BlobFolderSync resource 'site': property prefix value \{<nil>\} has a problem: is required/,
      );
      expect(failure).toMatch(
        /BlobFolderSync resource 'site': property directory value \{public\} has a problem: every file must be an object the blob API accepts \(1 KiB to 100 MB, an extension of an accepted MIME type\), got "notes.txt" of 12 bytes \(from 1024 to 100000000\); "tool.exe", whose extension maps to none of 37 accepted MIME types in "public"/,
      );
      expect(await mutatingRequests()).toEqual([]);
    } finally {
      rmSync(path.join(program.workDir, "public", "notes.txt"));
      rmSync(path.join(program.workDir, "public", "tool.exe"));
      await program.setFolder({});
    }
  });

  test("up uploads every file into one BlobFolderSync resource; urls maps each path to the URL serving its bytes", async () => {
    const statuses: string[] = [];
    const up = await program.stack.up({
      onEvent: (event) => {
        const diagnostic = event.diagnosticEvent;
        if (diagnostic?.ephemeral && diagnostic.urn?.endsWith("BlobFolderSync::site"))
          statuses.push(diagnostic.message);
      },
    });
    // The progress, as an ephemeral status on the set's line: the CLI shows it there while it uploads.
    expect(statuses.at(-1)).toMatch(new RegExp(`^folder "${prefix}": uploaded 3 of 3 files, 4 KiB of 4 KiB\\s*$`));
    // The stack, the folder and its one file set.
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    expect(await mutatingRequests()).toEqual(Array(3).fill("POST /v1/objects"));
    const resources = await program.resources();
    expect(resources.filter((resource) => resource.type.endsWith("BlobObject"))).toEqual([]);
    expect(resources.filter((resource) => resource.type.endsWith("BlobFolderSync"))).toHaveLength(1);

    const published = await urls();
    expect(Object.keys(published).sort()).toEqual(Object.keys(files).sort());
    for (const [relative, content] of Object.entries(files))
      expect((await fetchBytes(published[relative])).body.toString()).toBe(content);
    expect(await storedAsInState()).toEqual(Object.values(await stateObjects()).sort());
  });

  test("a preview of the unchanged folder reads no listing and changes nothing", async () => {
    expect((await program.stack.preview()).changeSummary).toEqual({ same: 3 });
    expect(await mutatingRequests()).toEqual([]);
  });

  test("an update uploads only the new and changed files, then deletes the objects of changed and removed files", async () => {
    const before = await urls();
    const menu = contentOf("menu-v2", 1200);
    write("data/menu.json", menu);
    write("about.html", contentOf("about", 1300));
    rmSync(path.join(program.workDir, "public", "css", "site.css"));

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 2 });
    expect(await mutatingRequests()).toEqual([
      "DELETE /v1/objects",
      "DELETE /v1/objects",
      "POST /v1/objects",
      "POST /v1/objects",
    ]);
    const after = await urls();
    expect(Object.keys(after).sort()).toEqual(["about.html", "data/menu.json", "index.html"]);
    expect(after["index.html"]).toBe(before["index.html"]);
    expect((await fetchBytes(after["data/menu.json"])).body.toString()).toBe(menu);
    expect((await fetchBytes(before["data/menu.json"])).status).toBe(404);
    expect((await fetchBytes(before["css/site.css"])).status).toBe(404);
    expect(await storedAsInState()).toEqual(Object.values(await stateObjects()).sort());
  });

  test("refresh drops an object deleted outside Pulumi from the state, and only it", async () => {
    const gone = (await stateObjects())["index.html"];
    await suite.api.deleteObject(gone);
    await suite.pastListCache(prefix, (ids) => !ids.includes(gone));

    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ update: 1, same: 2 });
    expect(Object.keys(await stateObjects()).sort()).toEqual(["about.html", "data/menu.json"]);
  });

  const lostOnEmulator = emulator ? "; an upload whose answer is lost is found in the listing, not sent twice" : "";
  test(`the next up uploads the dropped file and a new one alone${lostOnEmulator}`, async () => {
    await emulator?.emulator.admin.injectFault({
      match: { method: "POST", path: "/v1/objects" },
      kind: "drop-after-commit",
      count: 1,
    });
    const lost = contentOf("lost", 1400);
    write("lost.txt", lost);
    const up = program.stack.up();
    if (emulator) {
      const [dropped] = await emulator.emulator.admin.waitForRequests("POST /v1/objects", 1, 60_000);
      expect(dropped.fault).toBe("drop-after-commit");
      // The provider waits out the server's list cache on the server's clock: move it past.
      await emulator.emulator.admin.waitForRequests("GET /v1/objects", 1, 60_000);
      await emulator.emulator.admin.advanceClock(PAST_LIST_CACHE_MS);
    }
    expect((await up).summary.resourceChanges).toEqual({ update: 1, same: 2 });

    // One upload per file: the dropped one was kept from the listing.
    expect(await mutatingRequests()).toEqual(["POST /v1/objects", "POST /v1/objects"]);
    const published = await urls();
    expect((await fetchBytes(published["lost.txt"])).body.toString()).toBe(lost);
    expect((await fetchBytes(published["index.html"])).body.toString()).toBe(files["index.html"]);
    expect(await storedAsInState()).toEqual(Object.values(await stateObjects()).sort());
  });

  test("destroy deletes every object of the set", async () => {
    expect((await program.stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect(await stored([])).toEqual([]);
    expect((await program.resources()).filter((resource) => resource.type === SYNC_TYPE)).toEqual([]);
  });
}
