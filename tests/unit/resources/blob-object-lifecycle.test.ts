import { LOST_UPLOAD_LOOK_EVERY_MS } from "../../../provider/lifecycle/look-again";
import { blobObjectHandler } from "../../../provider/resources/blob-object";
import { LIST_CACHE_MS } from "../../../provider/kinds/blob-object";
import { ASSET_SIG, SIG_KEY } from "../../../provider/signatures";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The BlobObject handler's risky paths, called directly against the emulator: no engine, so each
// situation (stale listings, lost answers, other accounts) is set up exactly. Each test uses its
// own prefix: listings are shared within the process for a few seconds, as in a provider process.
// The provider waits on a fake clock that moves the emulator's: a lost upload waits the server's
// list cache out in no real time.

const PAST_LIST_CACHE = 31_000;
const PROVIDER = "serialized-stub";

// Not reset between tests: the provider carries the server's clock from one answer to the next
// (a lost upload is matched only to objects stored after it started), and a reset would take the
// emulator's clock back.
const env = providerAgainstEmulator({ resetBeforeEach: false });
const { warnings } = env;

const inputs = (name: string, prefix: string, content = `${name}:`.padEnd(1500, "-")) => ({
  name,
  prefix,
  mimeType: "text/plain",
  source: { [SIG_KEY]: ASSET_SIG, text: content },
  __provider: PROVIDER,
});

async function listedFresh(prefix: string): Promise<string[]> {
  await env.emulator.admin.advanceClock(PAST_LIST_CACHE);
  return (await env.api.listAllObjects(prefix)).map((o) => o.id);
}

/** How long the provider waited in the current test, on its clock, and that it looked often while it did. */
function waitedMs(): number {
  expect(Math.max(...env.clock.sleeps)).toBeLessThanOrEqual(LOST_UPLOAD_LOOK_EVERY_MS);
  return env.clock.sleeps.reduce((sum, ms) => sum + ms, 0);
}

/** The statuses of one route's requests since the test began. */
async function statuses(route: string): Promise<number[]> {
  return (await env.emulator.admin.requests()).filter((e) => e.route === route).map((e) => e.status);
}

test("create uploads and reports the server's creation time to the second", async () => {
  const before = await env.emulator.admin.clock();
  const { id, outs } = await blobObjectHandler.create(inputs("first", "lc_first"));
  expect(outs).toMatchObject({
    name: "first",
    prefix: "lc_first",
    size: 1500,
    mimeType: "text/plain",
    url: `${env.emulator.blobUrl}/public/${id}`,
  });
  expect(outs).toMatchObject({ securityHash: false, autoDownload: false });
  expect(outs.source).toBeUndefined();
  expect(Date.parse(outs.createdAt) % 1000).toBe(0);
  expect(Math.abs(Date.parse(outs.createdAt) - before)).toBeLessThan(5_000);
});

test("read keeps an object that a listing cached before its upload does not show yet", async () => {
  await env.api.listObjects({ prefix: "lc_stale" });
  const { id, outs } = await blobObjectHandler.create(inputs("stale", "lc_stale"));
  expect((await env.api.listObjects({ prefix: "lc_stale" })).objects).toEqual([]);
  expect(await blobObjectHandler.read(id, outs)).toEqual({ id, props: outs });
  expect(warnings).toEqual([]);
});

test("read drops an object deleted outside, once it is older than the list cache, with a warning", async () => {
  const { id, outs } = await blobObjectHandler.create(inputs("gone", "lc_gone"));
  await env.api.deleteObject(id);
  await env.emulator.admin.advanceClock(40_000);
  expect(await blobObjectHandler.read(id, outs)).toEqual({ id: "", props: {} });
  expect(warnings.join("\n")).toContain(`object "gone" (${id}) was deleted outside Pulumi`);
});

test("many creates at once keep to 4 uploads in flight; one listing of the prefix answers their reads", async () => {
  // Each upload holds its server-side slot 300 ms: without the client's gate a fifth would get 429.
  await env.emulator.admin.injectFault({
    match: { method: "POST", path: "/v1/objects" },
    kind: "latency",
    latencyMs: 300,
    count: 12,
  });
  const created = await Promise.all(
    Array.from({ length: 12 }, (_, i) => blobObjectHandler.create(inputs(`many${i}`, "lc_many"))),
  );
  expect(await statuses("POST /v1/objects")).toEqual(Array(12).fill(200));
  expect((await env.emulator.admin.peakUploadsInFlight())[env.emulator.accounts[0].accountId]).toBe(4);
  await env.emulator.admin.advanceClock(PAST_LIST_CACHE);
  await env.emulator.admin.clearRequests();
  const reads = await Promise.all(created.map(({ id, outs }) => blobObjectHandler.read(id, outs)));
  expect(reads.map((r) => r.id)).toEqual(created.map((c) => c.id));
  expect(await env.count("GET /v1/objects")).toBe(1);
});

test("a lost upload answer: the cache is waited out on the server's clock and the stored object kept", async () => {
  // The first looks are answered from this listing, cached before the upload.
  await env.api.listObjects({ prefix: "lc_lost" });
  await env.emulator.admin.clearRequests();
  await env.emulator.admin.injectFault({
    match: { method: "POST", path: "/v1/objects" },
    kind: "drop-after-commit",
    count: 1,
  });
  const { id } = await blobObjectHandler.create(inputs("lost", "lc_lost"));
  expect(await env.count("POST /v1/objects")).toBe(1);
  expect(waitedMs()).toBeGreaterThanOrEqual(LIST_CACHE_MS);
  expect(await listedFresh("lc_lost")).toEqual([id]);
  expect(warnings.join("\n")).toContain("not uploaded twice");
});

test("a lost upload that was not stored is uploaded again once the cache window has passed", async () => {
  await env.emulator.admin.injectFault({
    match: { method: "POST", path: "/v1/objects" },
    kind: "status",
    status: 502,
    code: "BAD_GATEWAY",
    count: 1,
  });
  const { id } = await blobObjectHandler.create(inputs("again", "lc_again"));
  expect(await statuses("POST /v1/objects")).toEqual([502, 200]);
  // Not before a listing answered after the lost upload had passed the server's cache.
  expect(waitedMs()).toBeGreaterThanOrEqual(LIST_CACHE_MS);
  expect(await listedFresh("lc_again")).toEqual([id]);
});

test("an upload reset twice with nothing stored is sent again within the retry budget, and stored once", async () => {
  await env.emulator.admin.injectFault({ match: { method: "POST", path: "/v1/objects" }, kind: "reset", count: 2 });
  const { id } = await blobObjectHandler.create(inputs("reset", "lc_reset"));
  // A reset is logged with status 0; each sending after a listing past the server's cache showed nothing.
  expect(await statuses("POST /v1/objects")).toEqual([0, 0, 200]);
  expect(waitedMs()).toBeGreaterThanOrEqual(2 * LIST_CACHE_MS);
  expect(await listedFresh("lc_reset")).toEqual([id]);
});

test("delete: an object already gone counts as deleted", async () => {
  const { id, outs } = await blobObjectHandler.create(inputs("twice", "lc_twice"));
  await blobObjectHandler.delete(id, outs);
  await blobObjectHandler.delete(id, outs);
  expect(warnings.join("\n")).toContain(`object "twice" (${id}) was already gone`);
  expect(await statuses("DELETE /v1/objects")).toEqual([200, 404]);
});

test("with another account's key, read and delete stop instead of taking the object for gone", async () => {
  const { id, outs } = await blobObjectHandler.create(inputs("mine", "lc_mine"));
  env.useAccount(1);
  const [owner, other] = env.emulator.accounts.map((account) => account.accountId);
  await expect(blobObjectHandler.read(id, outs)).rejects.toThrow(
    `refresh object "mine" (${id}): only its owner, account ${owner}, can do this, and the configured API key is for account ${other}. ` +
      `Use the owner's key (squarecloud:apiKey or SQUARECLOUD_API_KEY). Nothing was changed.`,
  );
  await expect(blobObjectHandler.delete(id, outs)).rejects.toThrow(
    `delete object "mine" (${id}): only its owner, account ${owner}`,
  );
  expect(await env.emulator.admin.requests()).toHaveLength(1);
});

test("adoptId takes over a listed object of the same name, prefix and size", async () => {
  const content = "adopted:".padEnd(1500, "-");
  const existing = await env.api.uploadObject({
    name: "taken",
    prefix: "lc_adopt",
    content: Buffer.from(content),
    mimeType: "text/plain",
  });
  await env.emulator.admin.advanceClock(PAST_LIST_CACHE);
  const { id, outs } = await blobObjectHandler.create({
    ...inputs("taken", "lc_adopt", content),
    adoptId: existing.id,
  });
  expect(id).toBe(existing.id);
  expect(outs.url).toBe(existing.url);
  expect(await env.count("POST /v1/objects")).toBe(1);
  await expect(
    blobObjectHandler.create({ ...inputs("taken", "lc_adopt", content.slice(0, 1200)), adoptId: existing.id }),
  ).rejects.toThrow(/another resource of this stack already holds it/);
  await expect(
    blobObjectHandler.create({ ...inputs("other", "lc_adopt", content), adoptId: existing.id }),
  ).rejects.toThrow(/its name and prefix are "taken" and "lc_adopt", but the inputs say "other" and "lc_adopt"/);
});

test("two resources adopting one object at once: one takes it, the other is refused", async () => {
  const content = "both:".padEnd(1500, "-");
  const existing = await env.api.uploadObject({
    name: "both",
    prefix: "lc_both",
    content: Buffer.from(content),
    mimeType: "text/plain",
  });
  await env.emulator.admin.advanceClock(PAST_LIST_CACHE);
  const adopting = [1, 2].map(() =>
    blobObjectHandler.create({ ...inputs("both", "lc_both", content), adoptId: existing.id }),
  );
  const outcomes = await Promise.allSettled(adopting);
  expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
  expect(String((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason)).toMatch(
    /another resource of this stack already holds it/,
  );
});

test("a lost upload is not matched to an identical object another stack stored before the upload started", async () => {
  const content = "shared:".padEnd(1500, "-");
  const otherStacks = await env.api.uploadObject({
    name: "shared",
    prefix: "lc_shared",
    content: Buffer.from(content),
    mimeType: "text/plain",
  });
  await env.emulator.admin.advanceClock(60_000);
  // A sibling's upload: the provider's last look at the server's clock before the lost one.
  await blobObjectHandler.create(inputs("sibling", "lc_shared"));
  await env.emulator.admin.injectFault({
    match: { method: "POST", path: "/v1/objects" },
    kind: "status",
    status: 502,
    code: "BAD_GATEWAY",
    count: 1,
  });
  const { id } = await blobObjectHandler.create(inputs("shared", "lc_shared", content));
  expect(id).not.toBe(otherStacks.id);
  expect((await listedFresh("lc_shared")).sort()).toEqual(expect.arrayContaining([otherStacks.id, id]));
});

test("read keeps the stored times when the listing's differ by a second, and corrects them beyond", async () => {
  const { id, outs } = await blobObjectHandler.create({ ...inputs("times", "lc_times"), expireDays: 2 });
  await env.emulator.admin.advanceClock(PAST_LIST_CACHE);
  const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
  const aSecondOff = { ...outs, createdAt: shifted(outs.createdAt, 1_000), expiresAt: shifted(outs.expiresAt, -1_000) };
  expect((await blobObjectHandler.read(id, aSecondOff)).props).toEqual(aSecondOff);
  const wrong = { ...outs, createdAt: shifted(outs.createdAt, 60_000), expiresAt: shifted(outs.expiresAt, 60_000) };
  expect((await blobObjectHandler.read(id, wrong)).props).toEqual(outs);
});
