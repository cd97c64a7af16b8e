import { PLANS, SEED_ACCOUNTS, SEED_DATABASES } from "../../emulator";
import { KEYS, expectError, expectSuccess, useEmulator } from "./helpers";

const env = useEmulator();
const newDatabase = { name: "faulty", memory: 512, type: "redis", version: "7.0" };

async function databaseIds(): Promise<string[]> {
  return expectSuccess(await env.platform("GET", "/v2/users/me")).databases.map((d: { id: string }) => d.id);
}

async function admin(method: string, path: string, json?: unknown) {
  const response = await fetch(`${env.emu.platformUrl}/__emulator${path}`, {
    method,
    ...(json === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("reset", () => {
  test("clears state and re-seeds", async () => {
    expectSuccess(await env.platform("POST", "/v2/databases", { json: newDatabase }));
    expect(await databaseIds()).toHaveLength(3);
    await env.emu.admin.reset();
    expect((await databaseIds()).sort()).toEqual([SEED_DATABASES.aliceCache, SEED_DATABASES.aliceMain].sort());
  });

  test("also resets the clock and works from the blob server's admin surface", async () => {
    await env.emu.admin.advanceClock(10 * 86_400_000);
    const response = await fetch(`${env.emu.blobUrl}/__emulator/reset`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(Math.abs((await env.emu.admin.clock()) - Date.now())).toBeLessThan(60_000);
  });
});

describe("clock", () => {
  test("GET returns now; POST advances or sets it (epoch ms or ISO)", async () => {
    const now = await env.emu.admin.clock();
    expect(await admin("GET", "/clock")).toEqual({ status: 200, body: { now: expect.any(Number) } });
    const advanced = await env.emu.admin.advanceClock(3_600_000);
    expect(advanced - now).toBeGreaterThanOrEqual(3_600_000);
    const target = Date.parse("2030-01-01T00:00:00.000Z");
    expect((await env.emu.admin.setClock(target)) - target).toBeLessThan(1_000);
    expect((await env.emu.admin.setClock("2031-06-01T12:00:00Z")) - Date.parse("2031-06-01T12:00:00Z")).toBeLessThan(
      1_000,
    );
    // The shared clock drives both APIs: blob timestamps follow it.
    const object = expectSuccess(await env.blob("POST", "/v1/objects?name=dated", { body: formOf(1024) }));
    const listed = expectSuccess(await env.blob("GET", "/v1/objects?prefix=dated")).objects;
    expect(listed[0].id).toBe(object.id);
    expect(listed[0].created_at.startsWith("2031-06-01")).toBe(true);
  });

  test("bad clock bodies are 400 INVALID_CLOCK", async () => {
    for (const body of [{}, { advanceMs: "soon" }, { now: "not a date" }, { now: 1, advanceMs: 1 }]) {
      const response = await admin("POST", "/clock", body);
      expect(response).toEqual({
        status: 400,
        body: { status: "error", code: "INVALID_CLOCK", message: expect.any(String) },
      });
    }
  });
});

function formOf(size: number): FormData {
  const form = new FormData();
  form.append("file", new Blob([Buffer.alloc(size, 1)], { type: "text/plain" }));
  return form;
}

describe("faults", () => {
  test("status: answers the given status and code without processing, for the next `count` requests", async () => {
    const id = await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      count: 1,
    });
    expect(id).toEqual(expect.any(String));
    expectError(await env.platform("POST", "/v2/databases", { json: newDatabase }), 503, "SERVICE_UNAVAILABLE");
    expect(await databaseIds()).toHaveLength(2);
    expect(await env.emu.admin.faults()).toEqual([]);
    expectSuccess(await env.platform("POST", "/v2/databases", { json: newDatabase }));
  });

  test("status: sends retryAfter verbatim as Retry-After, in seconds or as an HTTP date", async () => {
    const date = "Wed, 21 Oct 2065 07:28:00 GMT";
    await env.emu.admin.injectFault({
      match: { path: "/v2/users/me" },
      kind: "status",
      status: 429,
      code: "RATE_LIMITED",
      retryAfter: "2",
      count: 1,
    });
    await env.emu.admin.injectFault({
      match: { path: "/v1/objects" },
      kind: "status",
      status: 503,
      retryAfter: date,
      count: 1,
    });
    expect(await env.emu.admin.faults()).toEqual([
      expect.objectContaining({ retryAfter: "2" }),
      expect.objectContaining({ retryAfter: date }),
    ]);
    const limited = await env.platform("GET", "/v2/users/me");
    expectError(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("retry-after")).toBe("2");
    expect((await env.blob("GET", "/v1/objects")).headers.get("retry-after")).toBe(date);
    // Only the faults carry it.
    expect((await env.platform("GET", "/v2/users/me")).headers.get("retry-after")).toBeNull();
  });

  test("matches route templates with any parameter name, concrete paths and methods", async () => {
    await env.emu.admin.injectFault({
      match: { path: "/v2/databases/:databaseId" },
      kind: "status",
      status: 500,
      count: 2,
    });
    expectError(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}`), 500, "INTERNAL_SERVER_ERROR");
    expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}/metrics`));
    expectError(
      await env.platform("PATCH", `/v2/databases/${SEED_DATABASES.aliceMain}`, { json: { name: "x" } }),
      500,
      "INTERNAL_SERVER_ERROR",
    );
    expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}`));

    await env.emu.admin.injectFault({
      match: { method: "GET", path: `/v2/databases/${SEED_DATABASES.aliceMain}` },
      kind: "status",
      status: 502,
      code: "BAD_GATEWAY",
    });
    expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}`));
    expectError(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceMain}`), 502, "BAD_GATEWAY");
    expectError(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceMain}`), 502, "BAD_GATEWAY");
    await env.emu.admin.clearFaults();
    expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceMain}`));
  });

  test("probability 0 never fires; probability 1 always does", async () => {
    await env.emu.admin.injectFault({ match: { path: "/v2/users/me" }, kind: "status", status: 500, probability: 0 });
    for (let i = 0; i < 5; i++) expectSuccess(await env.platform("GET", "/v2/users/me"));
    await env.emu.admin.clearFaults();
    await env.emu.admin.injectFault({
      match: { path: "/v2/users/me" },
      kind: "status",
      status: 429,
      code: "RATE_LIMITED",
      probability: 1,
    });
    for (let i = 0; i < 3; i++) expectError(await env.platform("GET", "/v2/users/me"), 429, "RATE_LIMITED");
  });

  /** Statuses of 24 requests under a 50% fault, drawn from `seed`'s sequence when one is given. */
  const pattern = async (seed?: string) => {
    if (seed !== undefined) await env.emu.admin.seedFaults(seed);
    await env.emu.admin.injectFault({ match: { path: "/v2/users/me" }, kind: "status", status: 503, probability: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await env.platform("GET", "/v2/users/me")).status);
    await env.emu.admin.clearFaults();
    return statuses;
  };

  test("a seed makes probability draws repeat: the same seed, the same faulted requests", async () => {
    const first = await pattern("seed-a");
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await pattern("seed-a")).toEqual(first);
    expect(await admin("POST", "/faults/seed", { seed: "" })).toMatchObject({
      status: 400,
      body: { code: "INVALID_SEED" },
    });
  });

  test("reset forgets the seed: the draws that follow are unseeded again", async () => {
    await pattern("seed-b");
    const following = await pattern(); // draws 25 to 48 of the seed's sequence
    await pattern("seed-b");
    await env.emu.admin.reset();
    // Had the seed survived, draws 25 to 48 would come next; unseeded draws match them by
    // chance once in 2^24.
    expect(await pattern()).not.toEqual(following);
  });

  test("hold: the request waits until released, however long, then is processed normally", async () => {
    await env.emu.admin.injectFault({ match: { method: "POST", path: "/v2/databases" }, kind: "hold", count: 1 });
    let answered = false;
    const held = env.platform("POST", "/v2/databases", { json: newDatabase }).finally(() => (answered = true));
    await env.emu.admin.waitForFaultsUsedUp();
    // Held, it is neither logged nor answered: the wait for its log entry times out.
    await expect(env.emu.admin.waitForRequests("POST /v2/databases", 1, 500)).rejects.toThrow(/WAIT_TIMEOUT/);
    expect(answered).toBe(false);
    expect(await env.emu.admin.releaseHeld()).toBe(1);
    expectSuccess(await held);
    expect(await databaseIds()).toHaveLength(3);
    expect((await env.emu.admin.requests()).find((e) => e.route === "POST /v2/databases")).toMatchObject({
      status: 200,
      fault: "hold",
    });
  });

  test("clearing faults lets held requests go", async () => {
    await env.emu.admin.injectFault({ match: { method: "GET", path: "/v2/users/me" }, kind: "hold", count: 1 });
    const held = env.platform("GET", "/v2/users/me");
    await env.emu.admin.waitForFaultsUsedUp();
    await env.emu.admin.clearFaults();
    expectSuccess(await held);
    expect(await env.emu.admin.releaseHeld()).toBe(0);
  });

  test("latency: the request is then processed normally", async () => {
    await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "latency",
      latencyMs: 50,
      count: 1,
    });
    expectSuccess(await env.platform("POST", "/v2/databases", { json: newDatabase }));
    expect(await databaseIds()).toHaveLength(3);
    const log = await env.emu.admin.requests();
    expect(log.find((e) => e.route === "POST /v2/databases")).toMatchObject({ status: 200, fault: "latency" });
  });

  test.each([
    {
      title: "reset: the socket is destroyed before processing and nothing changes",
      kind: "reset",
      databases: 2,
      status: 0,
    },
    {
      title: "drop-after-commit: the change happens, the response never arrives",
      kind: "drop-after-commit",
      databases: 3,
      status: 200,
    },
  ] as const)("$title", async ({ kind, databases, status }) => {
    await env.emu.admin.injectFault({ match: { method: "POST", path: "/v2/databases" }, kind, count: 1 });
    await expect(env.platform("POST", "/v2/databases", { json: newDatabase })).rejects.toThrow();
    expect(await databaseIds()).toHaveLength(databases);
    const log = await env.emu.admin.requests();
    expect(log.find((e) => e.route === "POST /v2/databases")).toMatchObject({ status, fault: kind });
  });

  test("status-after-commit: the change happens, the fault's status and code are answered", async () => {
    await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status-after-commit",
      status: 202,
      code: "DATABASE_PROCESSING",
      count: 1,
    });
    const answer = await env.platform("POST", "/v2/databases", { json: newDatabase });
    expect(answer).toMatchObject({ status: 202, body: { status: "error", code: "DATABASE_PROCESSING" } });
    expect(await databaseIds()).toHaveLength(3);
    const log = await env.emu.admin.requests();
    expect(log.find((e) => e.route === "POST /v2/databases")).toMatchObject({
      status: 202,
      fault: "status-after-commit",
    });
  });

  test("faults also apply to the blob API", async () => {
    await env.emu.admin.injectFault({
      match: { path: "/v1/objects", method: "GET" },
      kind: "status",
      status: 504,
      count: 1,
    });
    expect((await env.blob("GET", "/v1/objects")).status).toBe(504);
    expectSuccess(await env.blob("GET", "/v1/objects"));
  });

  test("lists and clears faults; invalid specifications are 400 INVALID_FAULT", async () => {
    const id = await env.emu.admin.injectFault({
      match: { path: "/v2/users/me" },
      kind: "status",
      status: 500,
      count: 3,
    });
    expect(await env.emu.admin.faults()).toEqual([
      { id, match: { path: "/v2/users/me" }, kind: "status", status: 500, count: 3, remaining: 3 },
    ]);
    await env.emu.admin.clearFaults();
    expect(await env.emu.admin.faults()).toEqual([]);
    for (const spec of [
      {},
      { match: {}, kind: "explode" },
      { match: {}, kind: "latency" },
      { match: {}, kind: "status", probability: 2 },
      { match: { path: "no-slash" }, kind: "status" },
      { match: {}, kind: "status", count: 0 },
      { match: {}, kind: "status", retryAfter: 2 },
      { match: {}, kind: "status", retryAfter: "soon" },
      { match: {}, kind: "status", retryAfter: "-1" },
      { match: {}, kind: "status", retryAfter: "2\r\nSet-Cookie: x=1" },
      { match: {}, kind: "status", retryAfter: "2065-10-21T07:28:00Z" },
      { match: {}, kind: "latency", latencyMs: 10, retryAfter: "2" },
    ]) {
      expect(await admin("POST", "/faults", spec)).toEqual({
        status: 400,
        body: { status: "error", code: "INVALID_FAULT", message: expect.any(String) },
      });
    }
  });
});

describe("waiting for the server", () => {
  test("requests/wait answers with the route's entries once that many requests are over", async () => {
    await env.emu.admin.injectFault({
      match: { method: "GET", path: "/v2/users/me" },
      kind: "latency",
      latencyMs: 100,
      count: 1,
    });
    const slow = env.platform("GET", "/v2/users/me");
    const waited = env.emu.admin.waitForRequests("GET /v2/users/me", 2);
    await slow;
    expectSuccess(await env.platform("GET", "/v2/users/me"));
    expect((await waited).map((e) => [e.status, e.fault])).toEqual([
      [200, "latency"],
      [200, undefined],
    ]);
  });

  test("faults/wait answers once every fault is used up", async () => {
    await env.emu.admin.injectFault({
      match: { method: "GET", path: "/v2/users/me" },
      kind: "status",
      status: 503,
      count: 1,
    });
    const waited = env.emu.admin.waitForFaultsUsedUp();
    expect((await env.platform("GET", "/v2/users/me")).status).toBe(503);
    await waited;
    expect(await env.emu.admin.faults()).toEqual([]);
  });

  test("a wait whose condition never comes true is 408 WAIT_TIMEOUT; bad parameters are 400 INVALID_WAIT", async () => {
    await env.emu.admin.injectFault({ match: { path: "/v2/users/me" }, kind: "status", status: 500, count: 1 });
    const timedOut = { status: 408, body: { status: "error", code: "WAIT_TIMEOUT", message: expect.any(String) } };
    expect(await admin("GET", "/faults/wait?timeoutMs=1")).toEqual(timedOut);
    expect(await admin("GET", "/requests/wait?route=GET%20/v2/users/me&timeoutMs=1")).toEqual(timedOut);
    const invalid = { status: 400, body: { status: "error", code: "INVALID_WAIT", message: expect.any(String) } };
    for (const query of [
      "",
      "?route=x&count=0",
      "?route=x&count=two",
      "?route=x&timeoutMs=60001",
      "?route=x&timeoutMs=-5",
    ]) {
      expect(await admin("GET", `/requests/wait${query}`)).toEqual(invalid);
    }
    expect(await admin("GET", "/faults/wait?timeoutMs=0")).toEqual(invalid);
  });
});

describe("request log and counters", () => {
  test("records method, route template, path, status and time; counters by METHOD template", async () => {
    await env.platform("GET", "/v2/users/me");
    await env.platform("PATCH", `/v2/databases/${SEED_DATABASES.aliceCache}`, { json: { name: "renamed" } });
    await env.platform("PATCH", `/v2/databases/${SEED_DATABASES.aliceMain}`, { json: {} });
    await env.blob("GET", "/v1/objects?prefix=images");
    await env.platform("GET", "/v2/nope");
    const log = await env.emu.admin.requests();
    expect(log).toEqual([
      { method: "GET", route: "GET /v2/users/me", path: "/v2/users/me", status: 200, at: expect.any(String) },
      {
        method: "PATCH",
        route: "PATCH /v2/databases/:id",
        path: `/v2/databases/${SEED_DATABASES.aliceCache}`,
        status: 200,
        at: expect.any(String),
      },
      {
        method: "PATCH",
        route: "PATCH /v2/databases/:id",
        path: `/v2/databases/${SEED_DATABASES.aliceMain}`,
        status: 400,
        at: expect.any(String),
      },
      { method: "GET", route: "GET /v1/objects", path: "/v1/objects", status: 200, at: expect.any(String) },
      { method: "GET", route: "GET (no route)", path: "/v2/nope", status: 404, at: expect.any(String) },
    ]);
    expect(await env.emu.admin.counters()).toEqual({
      "GET /v2/users/me": 1,
      "PATCH /v2/databases/:id": 2,
      "GET /v1/objects": 1,
      "GET (no route)": 1,
    });
    await env.emu.admin.clearRequests();
    expect(await env.emu.admin.requests()).toEqual([]);
    expect(await env.emu.admin.counters()).toEqual({});
  });

  test("never holds keys, passwords, invite codes or bodies; admin calls are not logged", async () => {
    const db = expectSuccess(await env.platform("POST", "/v2/databases", { json: newDatabase }));
    const reset = expectSuccess(
      await env.platform("POST", `/v2/databases/${db.id}/credentials/reset`, { json: { reset: "password" } }),
    );
    const code = expectSuccess(await env.platform("GET", "/v2/workspaces/members/code", { key: KEYS.carol })).code;
    await env.platform("GET", `/v2/users/snapshots?scope=databases&secret=${code}`);
    await env.emu.admin.clock();
    const text = JSON.stringify([await env.emu.admin.requests(), await env.emu.admin.counters()]);
    for (const secret of [KEYS.alice, KEYS.carol, db.password, reset.password, code, "faulty"])
      expect(text).not.toContain(secret);
    expect(text).not.toContain("__emulator");
  });

  test("unknown admin routes are 404 ROUTE_NOT_FOUND and wrong methods 405", async () => {
    expect((await admin("GET", "/nothing")).body.code).toBe("ROUTE_NOT_FOUND");
    expect(await admin("PUT", "/clock")).toEqual({
      status: 405,
      body: { status: "error", code: "METHOD_NOT_ALLOWED", message: expect.any(String) },
    });
  });
});

describe("plan", () => {
  const dave = SEED_ACCOUNTS.dave;
  const bigMongo = { name: "big", memory: 4096, type: "mongo", version: "7.0" };

  test("gives an account another plan: its memory limit and name change, what it owns stays", async () => {
    expectError(
      await env.platform("POST", "/v2/databases", { key: KEYS.dave, json: bigMongo }),
      400,
      "INSUFFICIENT_MEMORY",
    );
    await env.emu.admin.setPlan(dave.accountId, "enterprise-32");
    const user = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.dave })).user;
    expect(user.plan).toMatchObject({
      name: "enterprise-32",
      memory: { limit: PLANS["enterprise-32"].memoryLimitMb, used: 0 },
    });
    expect(user.plan.duration).toBeGreaterThan(await env.emu.admin.clock());
    expectSuccess(await env.platform("POST", "/v2/databases", { key: KEYS.dave, json: bigMongo }));
    // Blob storage follows the plan as well.
    const stats = expectSuccess(await env.blob("GET", "/v1/account/stats", { key: KEYS.dave }));
    expect(stats.plan.included).toBe(PLANS["enterprise-32"].blobIncludedBytes);
  });

  test("reset gives the seeded plan back", async () => {
    await env.emu.admin.setPlan(dave.accountId, "enterprise-32");
    await env.emu.admin.reset();
    expect(expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.dave })).user.plan.name).toBe(
      "standard-2",
    );
  });

  test("an unknown account or plan is 400 INVALID_PLAN and changes nothing", async () => {
    for (const body of [
      { accountId: dave.accountId, plan: "platinum" },
      { accountId: "1", plan: "free" },
      { accountId: dave.accountId },
      { plan: "free" },
      { accountId: dave.accountId, plan: "toString" },
    ]) {
      expect(await admin("POST", "/plan", body)).toEqual({
        status: 400,
        body: { status: "error", code: "INVALID_PLAN", message: expect.any(String) },
      });
    }
    expect(expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.dave })).user.plan.name).toBe(
      "standard-2",
    );
  });
});

describe("api keys", () => {
  test("a rotated key authenticates at once and the old one no longer does", async () => {
    const newKey = await env.emu.admin.rotateApiKey(SEED_ACCOUNTS.alice.accountId);
    expect(newKey).toMatch(new RegExp(`^${SEED_ACCOUNTS.alice.accountId}-[0-9a-f]{40}$`));
    expectError(await env.platform("GET", "/v2/users/me"), 401, "ACCESS_DENIED");
    expect(expectSuccess(await env.platform("GET", "/v2/users/me", { key: newKey })).user.id).toBe(
      SEED_ACCOUNTS.alice.accountId,
    );
    expect(await admin("POST", "/accounts/123/api-key")).toMatchObject({
      status: 404,
      body: { code: "ACCOUNT_NOT_FOUND" },
    });
  });
});
