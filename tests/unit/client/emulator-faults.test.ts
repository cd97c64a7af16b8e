import { type RunningEmulator, SEED_APPS, SEED_DATABASES, startEmulator } from "../../../emulator";
import { createClient } from "../../../provider/client";
import type { SquareCloudClient } from "../../../provider/client";
import { apiErrorOf } from "../helpers/api-error";
import { EmulatorLinkedClock } from "../helpers/fake-clock";

/**
 * The client against the API twin with injected faults. Each test asserts what the server saw
 * (its request counters) and how long the client chose to wait (the fake clock's sleeps), so
 * retries run without real waiting.
 */

let emulator: RunningEmulator;
let clock: EmulatorLinkedClock;
let client: SquareCloudClient;

beforeAll(async () => {
  emulator = await startEmulator({ admin: true });
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  await emulator.admin.reset();
  clock = new EmulatorLinkedClock(emulator);
  const [alice] = emulator.accounts;
  client = createClient(
    { apiKey: alice.apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl },
    {
      clock,
      random: () => 0.5,
      timeoutMs: 500,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, deadlineMs: 60_000 },
    },
  );
});

afterEach(async () => {
  await client.close();
});

async function served(route: string): Promise<number> {
  return (await emulator.admin.counters())[route] ?? 0;
}

describe("SquareCloudClient against injected faults", () => {
  it("retries a GET answered 503 once, after one backoff", async () => {
    await emulator.admin.injectFault({
      match: { method: "GET", path: "/v2/databases/:id" },
      kind: "status",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      count: 1,
    });
    const database = await client.getDatabase(SEED_DATABASES.aliceCache);
    expect(database.id).toBe(SEED_DATABASES.aliceCache);
    expect(await served("GET /v2/databases/:id")).toBe(2);
    expect(clock.sleeps).toEqual([50]);
    // The retry says so: the request log tells it from a first request of the same route.
    expect((await emulator.admin.requests()).map((e) => e.attempt)).toEqual([undefined, 2]);
  });

  it("retries a non-idempotent POST the server rejected with 429", async () => {
    await emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/workspaces" },
      kind: "status",
      status: 429,
      code: "RATE_LIMIT",
      count: 2,
    });
    const workspace = await client.createWorkspace("paced_team");
    expect(workspace.name).toBe("paced_team");
    expect(await served("POST /v2/workspaces")).toBe(3);
    // The fault sends no Retry-After: plain backoff, 0.5 of 100 then of 200 ms.
    expect(clock.sleeps).toEqual([50, 100]);
    expect((await client.listWorkspaces()).filter((w) => w.name === "paced_team")).toHaveLength(1);
  });

  it("waits out a 429's Retry-After instead of its own backoff", async () => {
    await emulator.admin.injectFault({
      match: { method: "GET", path: "/v2/databases/:id" },
      kind: "status",
      status: 429,
      code: "RATE_LIMITED",
      retryAfter: "2",
      count: 1,
    });
    const database = await client.getDatabase(SEED_DATABASES.aliceMain);
    expect(database.id).toBe(SEED_DATABASES.aliceMain);
    // Retry-After, and a jitter of up to the base delay (0.5 of 100 ms here).
    expect(clock.sleeps).toEqual([2_050]);
    expect(await served("GET /v2/databases/:id")).toBe(2);
  });

  it("does not repeat a database create whose answer was lost, and says it may exist", async () => {
    await emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "drop-after-commit",
      count: 1,
    });
    const error = await apiErrorOf(
      client.createDatabase({ name: "orders", type: "redis", memory: 512, version: "7.4.5" }),
    );
    expect(error.code).toBe("CONNECTION_RESET");
    expect(error.mayHaveCommitted).toBe(true);
    expect(error.message).toMatch(/^create database "orders" failed: CONNECTION_RESET .*may have taken effect/);
    expect(await served("POST /v2/databases")).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect((await client.listDatabases()).map((d) => d.name)).toContain("orders");
  });

  it("retries a GET whose connection was reset before it was processed", async () => {
    await emulator.admin.injectFault({ match: { method: "GET", path: "/v2/databases/:id" }, kind: "reset", count: 1 });
    await client.getDatabase(SEED_DATABASES.aliceMain);
    const log = (await emulator.admin.requests()).filter((r) => r.route === "GET /v2/databases/:id");
    expect(log.map((r) => r.fault)).toEqual(["reset", undefined]);
    expect(clock.sleeps).toEqual([50]);
  });

  it("times out a GET slower than the per-request timeout and retries it", async () => {
    await emulator.admin.injectFault({
      match: { method: "GET", path: "/v2/users/me" },
      kind: "latency",
      latencyMs: 1_000,
      count: 1,
    });
    const account = await client.me();
    expect(account.user.id).toBe(emulator.accounts[0].accountId);
    expect(clock.sleeps).toEqual([50]);
    // The emulator logs the slow request once its wait is over: 499, the client had hung up on it.
    const log = await emulator.admin.waitForRequests("GET /v2/users/me", 2);
    expect(log.map((entry) => [entry.status, entry.fault]).sort()).toEqual([
      [200, undefined],
      [499, "latency"],
    ]);
  });

  it("does not retry a POST that timed out: it may still take effect", async () => {
    const app = SEED_APPS.aliceWebsite;
    const snapshotsBefore = (await client.listSnapshots("applications")).filter((s) => s.name === app).length;
    await emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "latency",
      latencyMs: 1_000,
      count: 1,
    });
    const error = await apiErrorOf(client.createAppSnapshot(app));
    expect(error).toMatchObject({ code: "TIMEOUT", mayHaveCommitted: true, status: undefined });
    expect(error.message).toContain("no response within 500 ms, POST /v2/apps/{appId}/snapshots");
    const log = await emulator.admin.waitForRequests("POST /v2/apps/:id/snapshots");
    expect(log.map((entry) => [entry.status, entry.fault])).toEqual([[499, "latency"]]);
    // The server finished the work after the client gave up: the reason to read before retrying.
    const snapshotsAfter = (await client.listSnapshots("applications")).filter((s) => s.name === app).length;
    expect(snapshotsAfter).toBe(snapshotsBefore + 1);
  });

  it("paces analytics of one application to one request per 10 s", async () => {
    await client.appAnalytics(SEED_APPS.aliceWebsite);
    await client.appAnalytics(SEED_APPS.aliceWebsite);
    expect(clock.sleeps).toEqual([10_000]);
    const calls = (await emulator.admin.requests()).filter((r) => r.route === "GET /v2/apps/:id/network/analytics");
    expect(calls).toHaveLength(2);
    expect(Date.parse(calls[1].at) - Date.parse(calls[0].at)).toBeGreaterThanOrEqual(10_000);
  });

  it("does not hold a weekly analytics read back behind a daily one: the server caches each range", async () => {
    await client.appAnalytics(SEED_APPS.aliceWebsite, "daily");
    await client.appAnalytics(SEED_APPS.aliceWebsite, "weekly");
    expect(clock.sleeps).toEqual([]);
    expect(await served("GET /v2/apps/:id/network/analytics")).toBe(2);
  });

  it("refuses an empty database update without sending it", async () => {
    const error = await apiErrorOf(client.updateDatabase(SEED_DATABASES.aliceCache, {}));
    expect(error.code).toBe("NO_UPDATE_DATA");
    expect(await served("PATCH /v2/databases/:id")).toBe(0);
  });
});
