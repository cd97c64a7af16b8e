import { cpSync, rmSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { type BlobObjectLifecycleContext, type BlobObjectShape, blobObjectLifecycle } from "../lifecycles/blob-object";
import { contentOf, fetchBytes } from "../lifecycles/blob-content";
import { pulumiEngine } from "../harness/engine";
import { type EmulatorSuite, emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";
import {
  type BlobSpec,
  blobOutputsOf,
  blobSpecsOf,
  openBlobProgram,
  setBlobSpecs,
} from "../lifecycles/blob-object-programs";

// BlobObject through the real engine against the emulator, whose local CDN serves the bytes: the
// lifecycle every language shares, with what the TypeScript SDK proves beyond it on the same stack
// (expiry, the server's list cache, a moved project, lost upload answers), then adoption on a stack
// of its own. The refusals at preview are in the bad-input table (tests/e2e/safety/bad-input.test.ts).

const OBJECT_TYPE = "pulumi-nodejs:dynamic/squarecloud:BlobObject";
const DAY = 86_400_000;
/** Past the server's 30 s list cache: listings after this are computed afresh. */
const PAST_LIST_CACHE = 31_000;
const PREFIX = "e2e";

async function stateNames(program: ProgramStack): Promise<string[]> {
  return (await program.resources())
    .filter((r) => r.type === OBJECT_TYPE)
    .map((r) => r.urn.split("::").pop() as string)
    .sort();
}

const specsOf = (objects: Record<string, BlobObjectShape>) => blobSpecsOf(PREFIX, objects);

blobObjectLifecycle(PREFIX, openBlobProgram(PREFIX), {
  beforeCreate: cachedListing,
  afterCreate: expiryListCacheAndMove,
  beforeDestroy: expiryAndLostAnswers,
  afterDestroy: lostObjectsGone,
});

/** When the server cached a listing of the prefix before the first upload, on its clock. */
let listingCachedAt = 0;
/** The objects the lost upload answers made, which the lifecycle's destroy must delete too. */
const lostIds: string[] = [];

function cachedListing({ suite }: BlobObjectLifecycleContext) {
  test("before the upload, the server caches an empty listing of the prefix", async () => {
    expect((await suite.api.listObjects({ prefix: PREFIX })).objects).toEqual([]);
    listingCachedAt = await suite.emulator.admin.clock();
  });
}

function expiryListCacheAndMove({ suite, program }: BlobObjectLifecycleContext) {
  test("expireDays gives an object its expiry a day after its upload; one without has none", async () => {
    const out = await blobOutputsOf(program());
    expect(Date.parse(out.data.expiresAt) - Date.parse(out.data.createdAt)).toBe(DAY);
    expect(out.one.expiresAt).toBeUndefined();
  });

  test("refresh right after the upload keeps the objects the server's cached listing does not show yet", async () => {
    const ids = Object.values(await blobOutputsOf(program())).map((o) => o.id);
    // "Right after" on the server's clock, however long the up took on a busy machine: the
    // listing is still within its 30 s cache and the objects are seconds old.
    await suite.emulator.admin.setClock(listingCachedAt + 1_000);
    expect((await suite.api.listObjects({ prefix: PREFIX })).objects.map((o) => o.id)).not.toContain(ids[0]);
    await suite.emulator.admin.clearRequests();
    const refresh = await program()
      .stack.refresh()
      .finally(() => suite.emulator.admin.setClock(Date.now())); // real time again
    expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
    expect(await stateNames(program())).toEqual(["data", "notes", "one"]);
    // The three objects shared one listing of their prefix.
    expect((await suite.emulator.admin.requests()).map((e) => e.route)).toEqual(["GET /v1/objects"]);
  });

  test("a preview after moving the project to another directory shows no changes", async () => {
    const moved = `${program().workDir}-moved`;
    cpSync(program().workDir, moved, { recursive: true });
    try {
      const workspace = await LocalWorkspace.create({
        workDir: moved,
        pulumiCommand: await pulumiEngine(),
        envVars: { ...program().stack.workspace.envVars, PULUMI_BACKEND_URL: `file://${path.join(moved, ".state")}` },
      });
      const stack = await Stack.select("e2e", workspace);
      expect((await stack.preview()).changeSummary).toEqual({ same: 4 });
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });
}

function expiryAndLostAnswers({ suite, program, objects }: BlobObjectLifecycleContext) {
  test("an expired object leaves the state at refresh, the others stay, and the next up uploads it again", async () => {
    const expiring = (await blobOutputsOf(program())).data;
    await suite.emulator.admin.advanceClock(DAY + 60_000);
    const refresh = await program().stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 3 });
    expect(refresh.stdout).toContain(`object "data" (${expiring.id}) expired at ${expiring.expiresAt}`);
    expect(await stateNames(program())).toEqual(["notes", "one"]);

    const up = await program().stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 3 });
    expect((await fetchBytes((await blobOutputsOf(program())).data.url)).body.toString()).toBe(contentOf("data", 3000));
  });

  // The id's -ex<days> suffix is optional: with or without it, the lost object is found by its
  // listed expiry. Each form adds its own object, so the stack keeps the earlier one.
  const lostObjects: Record<string, BlobSpec> = {};
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
      await setBlobSpecs(program(), { ...specsOf(objects()), ...lostObjects });

      const up = program().stack.up();
      const [dropped] = await suite.emulator.admin.waitForRequests("POST /v1/objects", 1, 60_000);
      expect(dropped.fault).toBe("drop-after-commit");
      // The provider's first listing after the loss is answered from the stale cache; the clock
      // then passes the cache window, and its next listing is fresh.
      await suite.emulator.admin.waitForRequests("GET /v1/objects", 1, 60_000);
      await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
      const result = await up;
      expect(result.summary.resourceChanges).toEqual({ create: 1, same: 3 + Object.keys(lostObjects).length });
      expect(result.stdout).toContain("not uploaded twice");

      const out = (await blobOutputsOf(program()))[key];
      expect(out.id).toMatch(idShape);
      expect((await suite.emulator.admin.requests()).filter((e) => e.route === "POST /v1/objects")).toHaveLength(1);
      expect(await listedFresh(suite, prefix)).toEqual([out.id]);
      expect(await stateNames(program())).toContain(key);
      expect((await fetchBytes(out.url)).body.toString()).toBe(lost);
      lostIds.push(out.id);
    },
    90_000,
  );
}

function lostObjectsGone({ suite }: BlobObjectLifecycleContext) {
  test("the destroy deleted the objects of the lost answers too", async () => {
    expect(lostIds).toHaveLength(2);
    const left = await listedFresh(suite, "e2elost");
    for (const id of lostIds) expect(left).not.toContain(id);
  });
}

const suite = emulatorSuite();

async function mutatingRequests(): Promise<string[]> {
  return (await suite.emulator.admin.requests()).filter((e) => e.method !== "GET").map((e) => e.route);
}

/** Ids the server lists under a prefix, once its cache window has passed. */
async function listedFresh({ emulator, api }: EmulatorSuite, prefix: string): Promise<string[]> {
  await emulator.admin.advanceClock(PAST_LIST_CACHE);
  return (await api.listAllObjects(prefix)).map((o) => o.id);
}

describe("adoption", () => {
  let program: ProgramStack;
  let logoId: string;
  const logo = contentOf("logo", 1500);

  beforeAll(async () => {
    program = suite.keep(await programStack({ program: "blobs", config: emulatorConfig(suite.emulator) }));
    await setBlobSpecs(program, { logo: { name: "logo", prefix: "e2eadopt", text: logo } });
    await program.stack.up();
    logoId = (await blobOutputsOf(program)).logo.id;
    // Adoption needs the object listed, past the server's list cache.
    await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
  });

  test("a resource renamed without aliases whose new entry adopts the object keeps it: nothing deleted, nothing uploaded", async () => {
    await suite.emulator.admin.clearRequests();
    await setBlobSpecs(program, { brand: { name: "logo", prefix: "e2eadopt", text: logo, adoptId: logoId } });
    const result = await program.stack.up();
    expect(result.stdout).toContain(
      `object "logo" (${logoId}) is now held by another resource of this stack; it leaves the state but is not deleted`,
    );
    expect(await mutatingRequests()).toEqual([]);
    expect(await stateNames(program)).toEqual(["brand"]);
    expect((await blobOutputsOf(program)).brand.id).toBe(logoId);
    expect(await listedFresh(suite, "e2eadopt")).toEqual([logoId]);
    await program.stack.preview({ expectNoChanges: true });
  });

  test("a second resource adopting an object the stack holds is refused, and nothing is changed", async () => {
    await suite.emulator.admin.clearRequests();
    await setBlobSpecs(program, {
      brand: { name: "logo", prefix: "e2eadopt", text: logo, adoptId: logoId },
      copy: { name: "logo", prefix: "e2eadopt", text: logo, adoptId: logoId },
    });
    const failure = await program.stack.up().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toMatch(/another resource of this stack (already holds it|in this update)/);
    expect(await mutatingRequests()).toEqual([]);
    expect(await listedFresh(suite, "e2eadopt")).toEqual([logoId]);
  });

  test("destroy deletes the adopted object once", async () => {
    await program.stack.destroy();
    expect(await listedFresh(suite, "e2eadopt")).toEqual([]);
  });
});
