import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { contentOf, expectReplaced, fetchBytes, replaceOneByNewContent, sha256 } from "./blob-content";
import { type EmulatorSuite, emulatorSuite } from "../harness/emulator-env";
import type { ServiceSuite } from "../harness/service-suite";
import type { ProgramStack, ProgramStackOptions } from "../harness/stack";

/** A BlobObject of a program: its name and its content, a file of the project or a text. */
export interface BlobObjectShape {
  name: string;
  source: { file: string } | { text: string };
}

/**
 * A stack whose program declares one BlobObject per key, under the prefix it was opened with, and
 * exports, under the same key, an object of its id, url, size, sha256 and mimeType.
 */
export interface BlobObjectsProgram extends ProgramStack {
  /** Rewrites the program (a file of the project, or the stack's config) to declare the objects. */
  setObjects(objects: Record<string, BlobObjectShape>): void | Promise<void>;
  /** The outputs of each object, by its key; by default the stack's outputs of those names. */
  objectOutputs?(): Promise<Record<string, Record<string, any>>>;
}

/** What a language's own tests of the lifecycle's stack reach. */
export interface BlobObjectLifecycleContext<S extends ServiceSuite = EmulatorSuite> {
  suite: S;
  program(): BlobObjectsProgram;
  /** The objects the program declares at that point. */
  objects(): Record<string, BlobObjectShape>;
  /** Writes a file of the project. */
  write(relative: string, content: string): void;
}

/** Tests a language adds on the lifecycle's stack, so that what it proves beyond the lifecycle costs no stack of its own. */
export interface BlobObjectLifecycleExtras<S extends ServiceSuite = EmulatorSuite> {
  /** After the refusal at preview, before the first up. */
  beforeCreate?(context: BlobObjectLifecycleContext<S>): void;
  /** After the create and the preview of the same contents. */
  afterCreate?(context: BlobObjectLifecycleContext<S>): void;
  /** After the replacements and the refresh, before the destroy; objects added here must be gone after it. */
  beforeDestroy?(context: BlobObjectLifecycleContext<S>): void;
  afterDestroy?(context: BlobObjectLifecycleContext<S>): void;
}

/**
 * The lifecycle of BlobObjects declared in a program, their content given as a file asset and as a
 * string asset, whatever the program's language and whichever provider serves them (the
 * TypeScript SDK's dynamic provider, or the native plugin for the others), against the service
 * `service` gives (the in-process emulator, whose local CDN serves the bytes, unless given).
 * Defines the tests of the calling file; `open` makes the stack from the first objects, under
 * `prefix`.
 */
export function blobObjectLifecycle<S extends ServiceSuite = EmulatorSuite>(
  prefix: string,
  open: (
    first: Record<string, BlobObjectShape>,
    options: Omit<ProgramStackOptions, "program">,
  ) => Promise<BlobObjectsProgram>,
  extras: BlobObjectLifecycleExtras<S> = {},
  // Without `service`, S is its default, EmulatorSuite: the one case the cast covers.
  service: () => S = emulatorSuite as unknown as () => S,
): void {
  const suite = service();

  let program: BlobObjectsProgram;

  const one = contentOf("one-v1", 2048);
  const data = contentOf("data", 3000);
  const notes = contentOf("notes", 1500);

  const objects: Record<string, BlobObjectShape> = {
    one: { name: "one", source: { file: "assets/one.txt" } },
    data: { name: "data", source: { file: "assets/data.json" } },
    notes: { name: "notes", source: { text: notes } },
  };

  /** The objects the program declares now. */
  let current = objects;

  function write(relative: string, content: string) {
    mkdirSync(path.dirname(path.join(program.workDir, relative)), { recursive: true });
    writeFileSync(path.join(program.workDir, relative), content);
  }

  const context: BlobObjectLifecycleContext<S> = { suite, program: () => program, objects: () => current, write };

  async function outputsOf(): Promise<Record<string, Record<string, any>>> {
    if (program.objectOutputs) return program.objectOutputs();
    return Object.fromEntries(
      Object.entries(await program.stack.outputs()).map(([key, output]) => [key, output.value]),
    );
  }

  async function mutatingRequests(): Promise<string[]> {
    return (await suite.log.requests()).filter((e) => e.method !== "GET").map((e) => e.route);
  }

  beforeAll(async () => {
    program = await open({ bad: { name: "bad-name", source: { file: "assets/one.txt" } } }, { config: suite.config() });
    suite.keep(program);
    write("assets/one.txt", one);
    write("assets/data.json", data);
  });

  beforeEach(async () => {
    await suite.log.clearRequests();
  });

  test("a name with '-' is refused at preview with the dynamic provider's message and no request", async () => {
    const failure = await program.stack.preview().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toMatch(
      /property name value \{bad-name\} has a problem: must be 3 to 32 characters of a-z, A-Z, 0-9 and _, got "bad-name"/,
    );
    expect(await suite.log.requests()).toEqual([]);
  });

  extras.beforeCreate?.(context);

  test("up uploads from a fileAsset and a stringAsset; url, size, sha256 and MIME type are outputs; the URLs serve the exact bytes", async () => {
    await program.setObjects(objects);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect((await suite.log.requests()).filter((e) => e.route === "POST /v1/objects").map((e) => e.status)).toEqual([
      200, 200, 200,
    ]);

    const out = await outputsOf();
    for (const [key, content, mimeType] of [
      ["one", one, "text/plain"],
      ["notes", notes, "text/plain"],
      ["data", data, "application/json"],
    ]) {
      expect(out[key]).toMatchObject({ size: content.length, sha256: sha256(content), mimeType });
      expect(out[key].id).toMatch(new RegExp(`^${suite.ownerId()}/${prefix}/${key}_`));
      const served = await fetchBytes(out[key].url);
      expect({ status: served.status, type: served.type, body: served.body.toString() }).toEqual({
        status: 200,
        type: mimeType,
        body: content,
      });
    }

    // The file's content never goes into state: its path and the engine's hash do.
    const backend = program.backendText();
    expect(backend).not.toContain(one.slice(0, 200));
    expect(backend).toContain("assets/one.txt");
    expect(backend).toContain(sha256(one));
  });

  test("a preview with the same contents shows no changes", async () => {
    expect((await program.stack.preview()).changeSummary).toEqual({ same: 4 });
    expect(await mutatingRequests()).toEqual([]);
  });

  extras.afterCreate?.(context);

  test("a new file content replaces the object: new URL, the old object deleted only after the new one is stored", async () => {
    const before = (await outputsOf()).one;
    const next = await replaceOneByNewContent(program.stack, () => suite.log.clearRequests(), write);
    const after = (await outputsOf()).one;
    expect(after).toMatchObject({ size: next.length, sha256: sha256(next) });
    await expectReplaced(before, after, next);
    expect(await mutatingRequests()).toEqual(["POST /v1/objects", "DELETE /v1/objects"]);
  });

  test("a new text replaces the object the same way", async () => {
    const before = (await outputsOf()).notes;
    const next = contentOf("notes-v2", 1600);
    current = { ...objects, notes: { name: "notes", source: { text: next } } };
    await program.setObjects(current);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 3 });
    const after = (await outputsOf()).notes;
    expect(after.id).not.toBe(before.id);
    expect((await fetchBytes(after.url)).body.toString()).toBe(next);
    expect(await mutatingRequests()).toEqual(["POST /v1/objects", "DELETE /v1/objects"]);
  });

  test("refresh after an out-of-band delete drops the object with a warning; the next up uploads it again", async () => {
    const gone = (await outputsOf()).data;
    await suite.api.deleteObject(gone.id);
    await suite.pastListCache(prefix, (listed) => !listed.includes(gone.id));
    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 3 });
    expect(refresh.stdout).toContain(`object "data" (${gone.id}) was deleted outside Pulumi`);

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 3 });
    const back = (await outputsOf()).data;
    expect(back.id).not.toBe(gone.id);
    expect((await fetchBytes(back.url)).body.toString()).toBe(data);
  });

  extras.beforeDestroy?.(context);

  test("destroy deletes every object", async () => {
    const out = await outputsOf();
    const ids = Object.keys(objects).map((key) => out[key]?.id);
    await program.stack.destroy();
    await suite.pastListCache(prefix, (listed) => ids.every((id) => !listed.includes(id)));
    const left = (await suite.api.listAllObjects(prefix)).map((o) => o.id);
    expect(ids).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    for (const id of ids) expect(left).not.toContain(id);
  });

  extras.afterDestroy?.(context);
}
