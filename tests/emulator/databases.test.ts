import { SEED_ACCOUNTS, SEED_DATABASES, SEED_DATABASE_SNAPSHOT_VERSIONS } from "../../emulator";
import { KEYS, expectError, expectSuccess, isoWithMillis, useEmulator } from "./helpers";

const env = useEmulator();
const redis = { name: "sessions", memory: 512, type: "redis", version: "7.4.5" };
const mongo = { name: "orders", memory: 1024, type: "mongo", version: "7.0" };

async function create(body: object, key: string = KEYS.alice) {
  return expectSuccess(await env.platform("POST", "/v2/databases", { key, json: body }));
}

async function databaseCount(key: string = KEYS.alice): Promise<number> {
  return expectSuccess(await env.platform("GET", "/v2/users/me", { key })).databases.length;
}

describe("POST /v2/databases", () => {
  test("creates a database and returns its credentials once", async () => {
    const db = await create(redis);
    expect(db).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: "sessions",
      memory: 512,
      cpu: expect.any(Number),
      type: "redis",
      password: expect.stringMatching(/^[a-z0-9]{16,}$/),
      certificate: expect.any(String),
      connection_url: expect.any(String),
      cluster: "florida-1",
      created_at: expect.any(String),
    });
    expect(db.connection_url).toMatch(
      new RegExp(`^redis://default:${db.password}@square-cloud-db-${db.id}\\.squareweb\\.app:\\d{5}$`),
    );
    expect(Buffer.from(db.certificate, "base64").toString()).toContain("-----BEGIN CERTIFICATE-----");
    const m = await create(mongo);
    expect(m.connection_url).toMatch(/^mongodb:\/\/default:/);
  });

  test.each([
    [{ ...redis, name: "has space" }, "INVALID_NAME"],
    [{ ...redis, name: "" }, "INVALID_NAME"],
    [{ ...redis, name: "ação" }, "INVALID_NAME"],
    [{ ...redis, name: 42 }, "INVALID_NAME"],
    [{ memory: 512, type: "redis", version: "7.0" }, "INVALID_NAME"],
    [{ ...redis, memory: 256 }, "INVALID_MEMORY"],
    [{ ...mongo, memory: 512 }, "INVALID_MEMORY"],
    [{ ...redis, memory: 512.5 }, "INVALID_MEMORY"],
    [{ ...redis, memory: "512" }, "INVALID_MEMORY"],
    [{ ...redis, type: "postgres" }, "INVALID_DATABASE_TYPE"],
    [{ ...redis, type: undefined }, "INVALID_DATABASE_TYPE"],
    [{ ...redis, version: "latest" }, "INVALID_DATABASE_VERSION"],
    [{ ...redis, version: "7." }, "INVALID_DATABASE_VERSION"],
    [{ ...redis, version: ".7" }, "INVALID_DATABASE_VERSION"],
    [{ ...redis, version: "7..4" }, "INVALID_DATABASE_VERSION"],
    [{ ...redis, version: 7 }, "INVALID_DATABASE_VERSION"],
  ])("%j is 400 %s and creates nothing", async (body, code) => {
    expectError(await env.platform("POST", "/v2/databases", { json: body }), 400, code);
    expect(await databaseCount()).toBe(2);
  });

  test("names and versions have no length or part count of their own: the reference states none", async () => {
    const long = await create({ ...redis, name: "a1".repeat(100), version: "7.4.5.1.2.3" });
    expect(long.name).toBe("a1".repeat(100));
    expectSuccess(await env.platform("PATCH", `/v2/databases/${long.id}`, { json: { name: "b2".repeat(100) } }));
    expect(expectSuccess(await env.platform("GET", `/v2/databases/${long.id}`)).name).toBe("b2".repeat(100));
  });

  test("only the JSON body limit stops an absurd name", async () => {
    expectError(
      await env.platform("POST", "/v2/databases", { json: { ...redis, name: "a".repeat(1024 * 1024) } }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect(await databaseCount()).toBe(2);
  });

  test("INSUFFICIENT_MEMORY when the plan is exhausted", async () => {
    // carol: 1024 MB plan, 256 MB used by her bot.
    expectError(
      await env.platform("POST", "/v2/databases", { key: KEYS.carol, json: mongo }),
      400,
      "INSUFFICIENT_MEMORY",
    );
    const db = await create(redis, KEYS.carol);
    expect(db.cluster).toBe("florida-free-1");
    expectError(
      await env.platform("POST", "/v2/databases", { key: KEYS.carol, json: redis }),
      400,
      "INSUFFICIENT_MEMORY",
    );
    const memory = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.carol })).user.plan.memory;
    expect(memory).toEqual({ limit: 1024, used: 768, available: 256 });
    expect(await databaseCount(KEYS.carol)).toBe(1);
    // Memory has no maximum of its own: past the plan it is INSUFFICIENT_MEMORY, not INVALID_MEMORY.
    expectError(
      await env.platform("POST", "/v2/databases", { json: { ...redis, memory: 1e12 } }),
      400,
      "INSUFFICIENT_MEMORY",
    );
  });
});

describe("GET /v2/databases/{id}", () => {
  test("returns the detail shape without password or certificate", async () => {
    const db = expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}`));
    expect(db).toEqual({
      id: SEED_DATABASES.aliceCache,
      name: "cache",
      owner: SEED_ACCOUNTS.alice.accountId,
      cluster: "florida-1",
      ram: 512,
      type: "redis",
      port: 31452,
      created_at: expect.any(String),
    });
  });

  test("a created database's password never appears in later reads", async () => {
    const created = await create(redis);
    const detail = await env.platform("GET", `/v2/databases/${created.id}`);
    expect(JSON.stringify(detail.body)).not.toContain(created.password);
    expect(detail.body.response.password).toBeUndefined();
    expect(detail.body.response.certificate).toBeUndefined();
  });

  test("unknown and foreign databases are 404 DATABASE_NOT_FOUND", async () => {
    expectError(await env.platform("GET", "/v2/databases/00000000000000000000000000000000"), 404, "DATABASE_NOT_FOUND");
    expectError(await env.platform("GET", `/v2/databases/${SEED_DATABASES.bobLegacy}`), 404, "DATABASE_NOT_FOUND");
  });
});

describe("PATCH /v2/databases/{id}", () => {
  const path = `/v2/databases/${SEED_DATABASES.aliceCache}`;

  test("an empty body or one with neither name nor ram is 400 NO_UPDATE_DATA", async () => {
    expectError(await env.platform("PATCH", path), 400, "NO_UPDATE_DATA");
    expectError(await env.platform("PATCH", path, { json: {} }), 400, "NO_UPDATE_DATA");
    expectError(await env.platform("PATCH", path, { json: { memory: 1024 } }), 400, "NO_UPDATE_DATA");
  });

  test("renames and resizes", async () => {
    expectSuccess(await env.platform("PATCH", path, { json: { name: "cache2" } }));
    expectSuccess(await env.platform("PATCH", path, { json: { ram: 1024 } }));
    expect(expectSuccess(await env.platform("GET", path))).toMatchObject({ name: "cache2", ram: 1024 });
    expectSuccess(await env.platform("PATCH", path, { json: { name: "cache3", ram: 512 } }));
    expect(expectSuccess(await env.platform("GET", path))).toMatchObject({ name: "cache3", ram: 512 });
  });

  test("validates name and ram against the engine minimum", async () => {
    expectError(await env.platform("PATCH", path, { json: { name: "bad name" } }), 400, "INVALID_NAME");
    expectError(await env.platform("PATCH", path, { json: { ram: 256 } }), 400, "INVALID_MEMORY");
    expectError(
      await env.platform("PATCH", `/v2/databases/${SEED_DATABASES.aliceMain}`, { json: { ram: 512 } }),
      400,
      "INVALID_MEMORY",
    );
    expect(expectSuccess(await env.platform("GET", path))).toMatchObject({ name: "cache", ram: 512 });
  });

  test("raising ram past the plan is 400 INSUFFICIENT_MEMORY", async () => {
    const db = await create(redis, KEYS.carol); // carol now has 256 MB free
    const dbPath = `/v2/databases/${db.id}`;
    expectError(
      await env.platform("PATCH", dbPath, { key: KEYS.carol, json: { ram: 1024 } }),
      400,
      "INSUFFICIENT_MEMORY",
    );
    expectSuccess(await env.platform("PATCH", dbPath, { key: KEYS.carol, json: { ram: 768 } }));
    const memory = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.carol })).user.plan.memory;
    expect(memory).toEqual({ limit: 1024, used: 1024, available: 0 });
  });

  test("lowering ram needs no free plan memory, only the engine minimum (INVALID_MEMORY below it)", async () => {
    const db = await create(redis, KEYS.carol);
    const dbPath = `/v2/databases/${db.id}`;
    expectSuccess(await env.platform("PATCH", dbPath, { key: KEYS.carol, json: { ram: 768 } })); // the plan is now full
    expectError(await env.platform("PATCH", dbPath, { key: KEYS.carol, json: { ram: 511 } }), 400, "INVALID_MEMORY");
    expectSuccess(await env.platform("PATCH", dbPath, { key: KEYS.carol, json: { ram: 512 } }));
    const memory = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.carol })).user.plan.memory;
    expect(memory).toEqual({ limit: 1024, used: 768, available: 256 });
    const mongoDb = await create(mongo);
    const mongoPath = `/v2/databases/${mongoDb.id}`;
    expectSuccess(await env.platform("PATCH", mongoPath, { json: { ram: 2048 } }));
    expectError(await env.platform("PATCH", mongoPath, { json: { ram: 1023 } }), 400, "INVALID_MEMORY");
    expectSuccess(await env.platform("PATCH", mongoPath, { json: { ram: 1024 } }));
    expect(expectSuccess(await env.platform("GET", mongoPath)).ram).toBe(1024);
  });
});

describe("DELETE /v2/databases/{id}", () => {
  test("deletes once; the second time is 404 DATABASE_NOT_FOUND", async () => {
    const db = await create(redis);
    expectSuccess(await env.platform("DELETE", `/v2/databases/${db.id}`));
    expectError(await env.platform("DELETE", `/v2/databases/${db.id}`), 404, "DATABASE_NOT_FOUND");
    expectError(await env.platform("GET", `/v2/databases/${db.id}`), 404, "DATABASE_NOT_FOUND");
  });

  test("cannot delete another account's database", async () => {
    expectError(
      await env.platform("DELETE", `/v2/databases/${SEED_DATABASES.aliceCache}`, { key: KEYS.bob }),
      404,
      "DATABASE_NOT_FOUND",
    );
    expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}`));
  });
});

describe("credentials", () => {
  test("the certificate can be fetched again and equals the one from creation", async () => {
    const db = await create(redis);
    const again = expectSuccess(await env.platform("GET", `/v2/databases/${db.id}/credentials/certificate`));
    expect(again).toEqual({ certificate: db.certificate });
  });

  test("a stopped database's certificate is DATABASE_NOT_RUNNING", async () => {
    expectError(
      await env.platform("GET", `/v2/databases/${SEED_DATABASES.bobLegacy}/credentials/certificate`, { key: KEYS.bob }),
      409,
      "DATABASE_NOT_RUNNING",
    );
  });

  test("password reset returns a new password once; certificate reset returns status only", async () => {
    const db = await create(redis);
    const path = `/v2/databases/${db.id}/credentials/reset`;
    const first = expectSuccess(await env.platform("POST", path, { json: { reset: "password" } }));
    expect(first).toEqual({ password: expect.stringMatching(/^[a-z0-9]{16,}$/) });
    expect(first.password).not.toBe(db.password);
    const second = expectSuccess(await env.platform("POST", path, { json: { reset: "password" } }));
    expect(second.password).not.toBe(first.password);
    const me = await env.platform("GET", "/v2/users/me");
    expect(JSON.stringify(me.body)).not.toContain(second.password);

    const reset = await env.platform("POST", path, { json: { reset: "certificate" } });
    expect(reset.body).toEqual({ status: "success" });
    const certificate = expectSuccess(
      await env.platform("GET", `/v2/databases/${db.id}/credentials/certificate`),
    ).certificate;
    expect(certificate).not.toBe(db.certificate);
  });

  test("an unknown reset kind is 400 INVALID_RESET", async () => {
    const path = `/v2/databases/${SEED_DATABASES.aliceCache}/credentials/reset`;
    expectError(await env.platform("POST", path, { json: { reset: "everything" } }), 400, "INVALID_RESET");
    expectError(await env.platform("POST", path, { json: {} }), 400, "INVALID_RESET");
  });
});

describe("GET /v2/databases/{id}/metrics", () => {
  test("5-minute samples, most recent first, with net as two cumulative numbers", async () => {
    const points = expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceMain}/metrics`));
    expect(points.length).toBe(288);
    const now = await env.emu.admin.clock();
    expect(now - Date.parse(points[0].date)).toBeLessThan(5 * 60_000);
    for (let i = 0; i < points.length; i++) {
      const point = points[i];
      expect(point).toEqual({
        date: expect.any(String),
        cpu: expect.any(Number),
        ram: expect.any(Number),
        net: [expect.any(Number), expect.any(Number)],
      });
      expect(isoWithMillis(point.date)).toBe(true);
      if (i > 0) {
        expect(Date.parse(points[i - 1].date) - Date.parse(point.date)).toBe(5 * 60_000);
        expect(point.net[0]).toBeLessThanOrEqual(points[i - 1].net[0]);
      }
    }
  });

  test("a new database has metrics only since its creation", async () => {
    const db = await create(redis);
    await env.emu.admin.advanceClock(16 * 60_000);
    const points = expectSuccess(await env.platform("GET", `/v2/databases/${db.id}/metrics`));
    expect(points.length).toBeGreaterThanOrEqual(3);
    expect(points.length).toBeLessThanOrEqual(4);
  });
});

describe("snapshots and restore", () => {
  const cache = SEED_DATABASES.aliceCache;
  const [latest, older] = SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache;
  const restore = (body: object, id: string = cache) =>
    env.platform("POST", `/v2/databases/${id}/snapshots/restore`, { json: body });

  test("GET /v2/databases/{id}/snapshots lists that database's versions, newest first", async () => {
    const entries = expectSuccess(await env.platform("GET", `/v2/databases/${cache}/snapshots`));
    expect(entries.map((e: { name: string }) => e.name)).toEqual([cache, cache, cache]);
    expect(entries.map((e: { key: string }) => new URLSearchParams(e.key).get("versionId"))).toEqual([
      ...SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache,
    ]);
  });

  test("restores an existing version, then refuses another restore of that database for 60 s", async () => {
    expect((await restore({ snapshotId: cache, versionId: latest })).body).toEqual({ status: "success" });
    expectError(await restore({ snapshotId: cache, versionId: older }), 429, "RESTORE_IN_PROGRESS");
    // Other databases have their own window.
    const main = SEED_DATABASES.aliceMain;
    expectSuccess(await restore({ snapshotId: main, versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0] }, main));
    await env.emu.admin.advanceClock(60_000);
    expectSuccess(await restore({ snapshotId: cache, versionId: older }));
  });

  test("rejects unknown versions, mismatched databases and malformed ids", async () => {
    expectError(
      await restore({ snapshotId: cache, versionId: "00000000-0000-4000-8000-000000000000" }),
      404,
      "SNAPSHOT_NOT_FOUND",
    );
    expectError(
      await restore({ snapshotId: cache, versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0] }),
      404,
      "SNAPSHOT_NOT_FOUND",
    );
    expectError(
      await restore({ snapshotId: SEED_DATABASES.aliceMain, versionId: latest }),
      400,
      "SNAPSHOT_DATABASE_MISMATCH",
    );
    expectError(await restore({ snapshotId: cache, versionId: "not-a-uuid" }), 400, "INVALID_VERSION_ID");
    expectError(await restore({ snapshotId: cache }), 400, "INVALID_VERSION_ID");
    expectError(await restore({ versionId: latest }), 400, "INVALID_SNAPSHOT_ID");
    expectError(await restore({ snapshotId: "../x", versionId: latest }), 400, "INVALID_SNAPSHOT_ID");
    // None of these started the 60 s window.
    expectSuccess(await restore({ snapshotId: cache, versionId: latest }));
  });

  test("another account's database is 404 DATABASE_NOT_FOUND", async () => {
    expectError(
      await env.platform("POST", `/v2/databases/${cache}/snapshots/restore`, {
        key: KEYS.bob,
        json: { snapshotId: cache, versionId: latest },
      }),
      404,
      "DATABASE_NOT_FOUND",
    );
  });
});
