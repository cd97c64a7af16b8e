import { SEED_APPS } from "../../../emulator";
import { createClient } from "../../../provider/client";
import { UNKNOWN } from "../../../provider/field-check";
import { LOOK_AGAIN_MS } from "../../../provider/lifecycle/look-again";
import { appSnapshotHandler } from "../../../provider/resources/app-snapshot";
import { PROCESSING_LOOKS_MS } from "../../../provider/resources/app-snapshot/take";
import { nextSnapshotAllowed, dailySnapshotQuota } from "../../../provider/resources/app-snapshot/quota";
import { FakeClock } from "../helpers/fake-clock";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The AppSnapshot handler against the emulator: quota, lost responses, and the operation
// semantics every operation shares (diff, read, update, delete).

const env = providerAgainstEmulator();
const SNAPSHOTS = "POST /v2/apps/:id/snapshots";
const PROVIDER = "serialized-stub";
const entry = (modified: string) => ({ name: "app", size: 1, modified, key: "k", versionId: undefined });

describe("check and diff: bad input sends nothing", () => {
  test("appId is required; trigger takes any value", async () => {
    expect((await appSnapshotHandler.check({}, { trigger: 1 })).failures).toEqual([
      { property: "appId", reason: "is required" },
    ]);
    expect((await appSnapshotHandler.check({}, { appId: "", trigger: { any: ["thing"] } })).failures).toEqual([
      { property: "appId", reason: `must be an id of 1 to 64 letters, digits, '_' or '-', got ""` },
    ]);
    expect((await appSnapshotHandler.check({}, { appId: "a", trigger: { any: ["thing"] } })).failures).toEqual([]);
    // Valid inputs go on to the credentials check, a read; the invalid ones sent nothing.
    expect((await env.emulator.admin.requests()).map((request) => request.route)).toEqual(["GET /v2/users/me"]);
  });

  test("equal inputs change nothing; a new trigger or app replaces, unknown values too", async () => {
    const olds = { appId: "a", trigger: { tag: "v1", n: 1 }, key: "secret", takenAt: "2026-01-01T00:00:00.000Z" };
    expect(await appSnapshotHandler.diff("id", olds, { appId: "a", trigger: { n: 1, tag: "v1" } })).toEqual({
      changes: false,
      replaces: [],
    });
    expect(await appSnapshotHandler.diff("id", olds, { appId: "a", trigger: { tag: "v2", n: 1 } })).toEqual({
      changes: true,
      replaces: ["trigger"],
    });
    expect(await appSnapshotHandler.diff("id", olds, { appId: UNKNOWN, trigger: olds.trigger })).toEqual({
      changes: true,
      replaces: ["appId"],
    });
    expect(await appSnapshotHandler.diff("id", { appId: "a" }, { appId: "a", trigger: "first" })).toEqual({
      changes: true,
      replaces: ["trigger"],
    });
  });

  test("refresh keeps the record; update and delete call nothing", async () => {
    const props = { appId: SEED_APPS.aliceApi, key: "k", takenAt: "2026-01-01T00:00:00.000Z" };
    expect(await appSnapshotHandler.read("id", props)).toEqual({ id: "id", props });
    expect(await appSnapshotHandler.update("id", props, { appId: SEED_APPS.aliceApi })).toEqual({ outs: props });
    await appSnapshotHandler.delete("id", props);
    expect(await env.emulator.admin.requests()).toEqual([]);
  });
});

describe("taking a snapshot", () => {
  test("create takes one snapshot and returns its url, key and time", async () => {
    const { id, outs } = await appSnapshotHandler.create({
      appId: SEED_APPS.aliceWebsite,
      trigger: "t",
      __provider: PROVIDER,
    });
    expect(outs).toMatchObject({
      appId: SEED_APPS.aliceWebsite,
      trigger: "t",
      __provider: PROVIDER,
      url: expect.stringContaining(outs.key),
    });
    expect(id).toBe(`${SEED_APPS.aliceWebsite}@${outs.takenAt}`);
    expect(await env.count(SNAPSHOTS)).toBe(1);
  });

  test("a response lost after the snapshot was taken is recorded from the listing, not taken twice", async () => {
    env.useAccount(1);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "drop-after-commit",
      count: 1,
    });
    const { outs } = await appSnapshotHandler.create({ appId: SEED_APPS.bobPortfolio });
    const [listed] = await createClient({
      apiKey: env.emulator.accounts[1].apiKey,
      platformUrl: env.emulator.platformUrl,
      blobUrl: env.emulator.blobUrl,
    }).listSnapshots();
    // Each listing signs its keys anew (the expiry counts from the listing), so two listings a
    // second apart differ there: the key is compared without its expiry and signature.
    const unsigned = (key: string | undefined) => {
      const params = new URLSearchParams(key);
      params.delete("Expires");
      params.delete("Signature");
      return params.toString();
    };
    expect({ ...outs, key: unsigned(outs.key) }).toEqual({
      appId: SEED_APPS.bobPortfolio,
      key: unsigned(listed.key),
      takenAt: listed.modified,
    });
    expect(outs.key).toMatch(/Expires=\d+&Signature=/);
    expect(outs.url).toBeUndefined();
    expect(await env.count(SNAPSHOTS)).toBe(1);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining("not taken twice"));
  });

  test("a request lost to a 502 that left nothing listed fails clearly and is not sent again", async () => {
    env.useAccount(2);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "status",
      status: 502,
      code: "BAD_GATEWAY",
      count: 1,
    });
    await expect(appSnapshotHandler.create({ appId: SEED_APPS.carolBot })).rejects.toThrow(
      /no usable response \(BAD_GATEWAY\) and no new snapshot is listed.*not sent again.*daily quota; run pulumi up again/,
    );
    expect(await env.count(SNAPSHOTS)).toBe(1);
    expect(env.clock.sleeps).toEqual(LOOK_AGAIN_MS.appSnapshot);
  });

  test("a reset with no answer that left nothing listed is sent again, and takes one snapshot", async () => {
    env.useAccount(2);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "reset",
      count: 1,
    });
    const { outs } = await appSnapshotHandler.create({ appId: SEED_APPS.carolBot });
    expect(outs.url).toEqual(expect.any(String));
    expect(await env.count(SNAPSHOTS)).toBe(2);
    // Sent again only after the listing showed nothing new for the whole schedule.
    expect(env.clock.sleeps).toEqual(expect.arrayContaining(LOOK_AGAIN_MS.appSnapshot));
  });
});

describe("a snapshot the service is still generating (202 SNAPSHOT_PROCESSING)", () => {
  const processing = { status: 202, code: "SNAPSHOT_PROCESSING", count: 1 } as const;

  test("is recorded from the listing once it shows there, and not requested again", async () => {
    env.useAccount(1);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "status-after-commit",
      ...processing,
    });
    const { outs } = await appSnapshotHandler.create({ appId: SEED_APPS.bobPortfolio });
    expect(outs).toMatchObject({ appId: SEED_APPS.bobPortfolio, key: expect.stringMatching(/Signature=/) });
    expect(outs.url).toBeUndefined();
    expect(Number.isNaN(Date.parse(outs.takenAt))).toBe(false);
    expect(await env.count(SNAPSHOTS)).toBe(1);
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringMatching(/still being generated when the service answered \(HTTP 202, SNAPSHOT_PROCESSING\)/),
    );
  });

  test("not listed within the bound: fails saying so, after one request and every look", async () => {
    env.useAccount(2);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "status",
      ...processing,
    });
    await expect(appSnapshotHandler.create({ appId: SEED_APPS.carolBot })).rejects.toThrow(
      /still generating it \(HTTP 202, SNAPSHOT_PROCESSING\) and did not list it within 180 s\. It was not requested again/,
    );
    expect(await env.count(SNAPSHOTS)).toBe(1);
    // After the 5 s pacing since the earlier test's snapshot of this account, every look's wait.
    expect(env.clock.sleeps.slice(-PROCESSING_LOOKS_MS.length)).toEqual(PROCESSING_LOOKS_MS);
    expect(await env.count("GET /v2/users/snapshots")).toBe(PROCESSING_LOOKS_MS.length + 2);
  });
});

describe("the daily quota", () => {
  test("(RAM / 256) * 2", () => {
    expect(dailySnapshotQuota(8192)).toBe(64);
    expect(dailySnapshotQuota(1024)).toBe(8);
  });

  test("the next snapshot is allowed 24 hours after the oldest counted one: exact with a full listing, a bound otherwise", () => {
    const now = Date.parse("2026-05-02T12:00:00.000Z");
    const listed = [
      entry("2026-05-02T10:00:00.000Z"),
      entry("2026-05-01T13:00:00.000Z"),
      entry("2026-05-01T11:00:00.000Z"),
    ];
    expect(nextSnapshotAllowed(listed, 2, now)).toEqual({ at: new Date("2026-05-02T13:00:00.000Z"), exact: true });
    expect(nextSnapshotAllowed(listed, 4, now)).toEqual({ at: new Date("2026-05-02T13:00:00.000Z"), exact: false });
    expect(nextSnapshotAllowed([entry("2026-04-30T00:00:00.000Z")], 4, now)).toBeUndefined();
  });

  test("an exhausted quota fails with the quota and when it frees up, nothing taken", async () => {
    // carol's free plan (1024 MB) allows 8 a day: use them up, each past the 5 s window of the
    // emulator clock, with a client whose pacing runs on a fake clock.
    const carol = env.emulator.accounts[2];
    const direct = createClient(
      { apiKey: carol.apiKey, platformUrl: env.emulator.platformUrl, blobUrl: env.emulator.blobUrl },
      { clock: new FakeClock() },
    );
    for (let i = 0; i < 8; i++) {
      await direct.createAppSnapshot(SEED_APPS.carolBot);
      await env.emulator.admin.advanceClock(5_000);
    }
    const oldest = (await direct.listSnapshots()).map((s) => Date.parse(s.modified)).sort((a, b) => a - b)[0];
    await direct.close();

    env.useAccount(2);
    const expected = new Date(oldest + 24 * 60 * 60_000).toISOString();
    await expect(appSnapshotHandler.create({ appId: SEED_APPS.carolBot })).rejects.toThrow(
      `snapshot of application "${SEED_APPS.carolBot}" refused (DAILY_SNAPSHOTS_LIMIT_REACHED): the account's quota of 8 ` +
        `application snapshots per 24 hours (plan free: 1024 MB / 256 * 2) is used up, so no snapshot was taken; ` +
        `the next one is allowed at ${expected} (24 hours after the oldest snapshot of the last 24 hours). Run pulumi up again after that.`,
    );
    expect(await env.count(SNAPSHOTS)).toBe(9);
  });
});
