import { closeSync, cpSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { contentOf, expectReplaced, fetchBytes, replaceOneByNewContent, sha256 } from "../blob-content";
import { pulumiEngine } from "../engine";
import { emulatorConfig, emulatorSuite } from "../emulator-env";
import { programStack, type ProgramStack } from "../stack";

// BlobObject through the real engine against the emulator, whose local CDN serves the bytes.

const OBJECT_TYPE = "pulumi-nodejs:dynamic/squarecloud:BlobObject";
const DAY = 86_400_000;
/** Past the server's 30 s list cache: listings after this are computed afresh. */
const PAST_LIST_CACHE = 31_000;

type Spec = Record<string, unknown> & { name: string };

const suite = emulatorSuite();

async function setObjects(program: ProgramStack, objects: Record<string, Spec>) {
  await program.stack.setConfig("objects", { value: JSON.stringify(objects) });
}

async function outputsOf(program: ProgramStack): Promise<Record<string, Record<string, any>>> {
  return (await program.stack.outputs()).objects.value;
}

async function stateNames(program: ProgramStack): Promise<string[]> {
  return (await program.resources())
    .filter((r) => r.type === OBJECT_TYPE)
    .map((r) => r.urn.split("::").pop() as string)
    .sort();
}

/** Ids the server lists under a prefix, once its cache window has passed. */
async function listedFresh(prefix: string): Promise<string[]> {
  await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
  return (await suite.api.listAllObjects(prefix)).map((o) => o.id);
}

async function mutatingRequests(): Promise<string[]> {
  return (await suite.emulator.admin.requests()).filter((e) => e.method !== "GET").map((e) => e.route);
}

describe("BlobObject lifecycle", () => {
  let program: ProgramStack;
  const write = (relative: string, content: string) => {
    mkdirSync(path.dirname(path.join(program.workDir, relative)), { recursive: true });
    writeFileSync(path.join(program.workDir, relative), content);
  };
  const one = contentOf("one-v1", 2048);
  const data = contentOf("data", 3000);
  const notes = contentOf("notes", 1500);
  const objects: Record<string, Spec> = {
    one: { name: "one", prefix: "e2e", file: "assets/one.txt" },
    notes: { name: "notes", prefix: "e2e", text: notes },
    data: { name: "data", prefix: "e2e", file: "assets/data.json", expireDays: 1 },
  };

  beforeAll(async () => {
    program = suite.keep(await programStack({ program: "blobs", config: emulatorConfig(suite.emulator) }));
    write("assets/one.txt", one);
    write("assets/data.json", data);
    write("assets/tiny.txt", "tiny");
    write("assets/blob.bin", contentOf("bin", 2048));
    // A sparse file: 101 MB by its size, nothing on disk.
    closeSync(openSync(path.join(program.workDir, "assets/huge.txt"), "w"));
    const { truncateSync } = await import("node:fs");
    truncateSync(path.join(program.workDir, "assets/huge.txt"), 101 * 1000 * 1000);
  });

  test.each([
    [
      "names, prefix, MIME type and expiry",
      { name: "x!", prefix: "ab", mimeType: "application/zip", expireDays: 400, file: "assets/one.txt" },
      [
        /name.*3 to 32 characters of a-z, A-Z, 0-9 and _, got "x!"/,
        /prefix.*3 to 32 characters.*got "ab"/,
        /mimeType.*must be one of .*got "application\/zip"/,
        /expireDays.*from 1 to 365 days, got 400/,
      ],
    ],
    [
      "a missing file",
      { name: "missing", file: "assets/nope.txt" },
      [/BlobObject "bad": source must name an existing file.*got "assets\/nope.txt"/],
    ],
    [
      "a remote asset",
      { name: "remote", remote: "https://example.com/logo.png" },
      [/BlobObject "bad": source must be a .*FileAsset.*RemoteAsset of "https:\/\/example.com\/logo.png"/],
    ],
    [
      "a file under 1 KiB",
      { name: "tiny", file: "assets/tiny.txt" },
      [/source.*from 1 KiB.*"assets\/tiny.txt" of 4 bytes/],
    ],
    ["a text under 1 KiB", { name: "tinytext", text: "short" }, [/source.*from 1 KiB.*a StringAsset of 5 bytes/]],
    [
      "a file over 100 MB",
      { name: "huge", file: "assets/huge.txt" },
      [/source.*100 MB.*"assets\/huge.txt" of 101000000 bytes/],
    ],
    [
      "an extension with no accepted MIME type",
      { name: "binary", file: "assets/blob.bin" },
      [/mimeType.*is required.*"assets\/blob.bin"/],
    ],
  ])("%s: refused at preview with field, rule and value, and no request", async (_label, spec, messages) => {
    await suite.emulator.admin.clearRequests();
    await setObjects(program, { bad: spec as Spec });
    const failure = await program.stack.preview().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure).toBeDefined();
    for (const message of messages) expect(failure?.message).toMatch(message);
    expect(await suite.emulator.admin.requests()).toEqual([]);
  });

  // When the server cached a listing of "e2e", on its clock.
  let listingCachedAt = 0;

  test("up uploads from a FileAsset and a StringAsset; the URLs serve the exact bytes", async () => {
    // A listing the server caches before the upload: the next test refreshes against it.
    await suite.api.listObjects({ prefix: "e2e" });
    listingCachedAt = await suite.emulator.admin.clock();
    await suite.emulator.admin.clearRequests();
    await setObjects(program, objects);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(
      (await suite.emulator.admin.requests()).filter((e) => e.route === "POST /v1/objects").map((e) => e.status),
    ).toEqual([200, 200, 200]);

    const out = await outputsOf(program);
    for (const [key, content, mimeType] of [
      ["one", one, "text/plain"],
      ["notes", notes, "text/plain"],
      ["data", data, "application/json"],
    ]) {
      expect(out[key]).toMatchObject({ size: content.length, sha256: sha256(content), mimeType });
      expect(out[key].id).toMatch(new RegExp(`^${suite.emulator.accounts[0].accountId}/e2e/${key}_`));
      const served = await fetchBytes(out[key].url);
      expect(served).toMatchObject({ status: 200, type: mimeType });
      expect(served.body.toString()).toBe(content);
    }
    expect(Date.parse(out.data.expiresAt) - Date.parse(out.data.createdAt)).toBe(DAY);
    expect(out.one.expiresAt).toBeUndefined();

    // The file's content never goes into state: its path and the engine's hash do.
    const backend = program.backendText();
    expect(backend).not.toContain(one.slice(0, 200));
    expect(backend).toContain("assets/one.txt");
    expect(backend).toContain(sha256(one));
  });

  test("refresh right after the upload keeps the objects the server's cached listing does not show yet", async () => {
    const ids = Object.values(await outputsOf(program)).map((o) => o.id);
    // "Right after" on the server's clock, however long the up took on a busy machine: the
    // listing is still within its 30 s cache and the objects are seconds old.
    await suite.emulator.admin.setClock(listingCachedAt + 1_000);
    expect((await suite.api.listObjects({ prefix: "e2e" })).objects.map((o) => o.id)).not.toContain(ids[0]);
    await suite.emulator.admin.clearRequests();
    const refresh = await program.stack.refresh().finally(() => suite.emulator.admin.setClock(Date.now())); // real time again
    expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
    expect(await stateNames(program)).toEqual(["data", "notes", "one"]);
    // The three objects shared one listing of their prefix.
    expect((await suite.emulator.admin.requests()).map((e) => e.route)).toEqual(["GET /v1/objects"]);
  });

  test("a preview after moving the project to another directory shows no changes", async () => {
    const moved = `${program.workDir}-moved`;
    cpSync(program.workDir, moved, { recursive: true });
    try {
      const workspace = await LocalWorkspace.create({
        workDir: moved,
        pulumiCommand: await pulumiEngine(),
        envVars: { ...program.stack.workspace.envVars, PULUMI_BACKEND_URL: `file://${path.join(moved, ".state")}` },
      });
      const stack = await Stack.select("e2e", workspace);
      expect((await stack.preview()).changeSummary).toEqual({ same: 4 });
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  test("a new file content replaces the object: new URL, the old object deleted only after the new one is stored", async () => {
    const before = (await outputsOf(program)).one;
    const next = await replaceOneByNewContent(program.stack, () => suite.emulator.admin.clearRequests(), write);
    await expectReplaced(before, (await outputsOf(program)).one, next);
    const mutations = await mutatingRequests();
    expect(mutations).toEqual(["POST /v1/objects", "DELETE /v1/objects"]);
  });

  test("refresh after an out-of-band delete drops the object with a warning; the next up uploads it again", async () => {
    const gone = (await outputsOf(program)).notes;
    await suite.api.deleteObject(gone.id);
    await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 3 });
    expect(refresh.stdout).toContain(`object "notes" (${gone.id}) was deleted outside Pulumi`);
    expect(await stateNames(program)).toEqual(["data", "one"]);

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 3 });
    const back = (await outputsOf(program)).notes;
    expect(back.id).not.toBe(gone.id);
    expect((await fetchBytes(back.url)).body.toString()).toBe(notes);
  });

  test("an expired object leaves the state at refresh, the others stay, and the next up uploads it again", async () => {
    const expiring = (await outputsOf(program)).data;
    await suite.emulator.admin.advanceClock(DAY + 60_000);
    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 3 });
    expect(refresh.stdout).toContain(`object "data" (${expiring.id}) expired at ${expiring.expiresAt}`);
    expect(await stateNames(program)).toEqual(["notes", "one"]);

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 3 });
    expect((await fetchBytes((await outputsOf(program)).data.url)).body.toString()).toBe(data);
  });

  // The id's -ex<days> suffix is optional: with or without it, the lost object is found by its
  // listed expiry. Each form adds its own object, so the stack keeps the earlier one.
  const lostObjects: Record<string, Spec> = {};
  test.each([
    ["plain", /_[a-z0-9]{8}-[0-9a-f]{4}\.txt$/],
    ["suffixed", /_[a-z0-9]{8}-[0-9a-f]{4}-ex1\.txt$/],
  ] as const)(
    "a lost upload answer with expireDays, ids %s, is reconciled to exactly one object, uploaded once",
    async (form, idShape) => {
      const key = `lost_${form}`;
      const prefix = `e2elost${form}`;
      const lost = contentOf(key, 1200);
      await suite.emulator.admin.setObjectIds(form);
      // A listing cached before the upload, so the provider's first look cannot see the object.
      await suite.api.listObjects({ prefix });
      await suite.emulator.admin.clearRequests();
      await suite.emulator.admin.injectFault({
        match: { method: "POST", path: "/v1/objects" },
        kind: "drop-after-commit",
        count: 1,
      });
      lostObjects[key] = { name: "lost", prefix, text: lost, expireDays: 1 };
      await setObjects(program, { ...objects, ...lostObjects });

      const up = program.stack.up();
      const [dropped] = await suite.emulator.admin.waitForRequests("POST /v1/objects", 1, 60_000);
      expect(dropped.fault).toBe("drop-after-commit");
      // The provider's first listing after the loss is answered from the stale cache; the clock
      // then passes the cache window, and its next listing is fresh.
      await suite.emulator.admin.waitForRequests("GET /v1/objects", 1, 60_000);
      await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
      const result = await up;
      expect(result.summary.resourceChanges).toEqual({ create: 1, same: 3 + Object.keys(lostObjects).length });
      expect(result.stdout).toContain("not uploaded twice");

      const out = (await outputsOf(program))[key];
      expect(out.id).toMatch(idShape);
      expect((await suite.emulator.admin.requests()).filter((e) => e.route === "POST /v1/objects")).toHaveLength(1);
      expect(await listedFresh(prefix)).toEqual([out.id]);
      expect(await stateNames(program)).toContain(key);
      expect((await fetchBytes(out.url)).body.toString()).toBe(lost);
    },
    90_000,
  );

  test("destroy deletes every object", async () => {
    const ids = Object.values(await outputsOf(program)).map((o) => o.id);
    await program.stack.destroy();
    const left = [...(await listedFresh("e2e")), ...(await listedFresh("e2elost"))];
    for (const id of ids) expect(left).not.toContain(id);
  });
});

describe("adoption", () => {
  let program: ProgramStack;
  let logoId: string;
  const logo = contentOf("logo", 1500);

  beforeAll(async () => {
    program = suite.keep(await programStack({ program: "blobs", config: emulatorConfig(suite.emulator) }));
    await setObjects(program, { logo: { name: "logo", prefix: "e2eadopt", text: logo } });
    await program.stack.up();
    logoId = (await outputsOf(program)).logo.id;
    // Adoption needs the object listed, past the server's list cache.
    await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
  });

  test("a resource renamed without aliases whose new entry adopts the object keeps it: nothing deleted, nothing uploaded", async () => {
    await suite.emulator.admin.clearRequests();
    await setObjects(program, { brand: { name: "logo", prefix: "e2eadopt", text: logo, adoptId: logoId } });
    const result = await program.stack.up();
    expect(result.stdout).toContain(
      `object "logo" (${logoId}) is now held by another resource of this stack; it leaves the state but is not deleted`,
    );
    expect(await mutatingRequests()).toEqual([]);
    expect(await stateNames(program)).toEqual(["brand"]);
    expect((await outputsOf(program)).brand.id).toBe(logoId);
    expect(await listedFresh("e2eadopt")).toEqual([logoId]);
    await program.stack.preview({ expectNoChanges: true });
  });

  test("a second resource adopting an object the stack holds is refused, and nothing is changed", async () => {
    await suite.emulator.admin.clearRequests();
    await setObjects(program, {
      brand: { name: "logo", prefix: "e2eadopt", text: logo, adoptId: logoId },
      copy: { name: "logo", prefix: "e2eadopt", text: logo, adoptId: logoId },
    });
    const failure = await program.stack.up().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toMatch(/another resource of this stack (already holds it|in this update)/);
    expect(await mutatingRequests()).toEqual([]);
    expect(await listedFresh("e2eadopt")).toEqual([logoId]);
  });

  test("destroy deletes the adopted object once", async () => {
    await program.stack.destroy();
    expect(await listedFresh("e2eadopt")).toEqual([]);
  });
});
