import {
  SEED_ACCOUNTS,
  SEED_APPS,
  SEED_DATABASES,
  SEED_DATABASE_SNAPSHOT_VERSIONS,
  SEED_MEMORY_USED_MB,
} from "../../emulator";
import { KEYS, expectError, expectSuccess, useEmulator } from "./helpers";

const env = useEmulator();

/** Every route of both APIs, with a concrete path. */
const PLATFORM_ROUTES: [string, string][] = [
  ["GET", "/v2/users/me"],
  ["GET", "/v2/users/snapshots"],
  ["GET", `/v2/apps/${SEED_APPS.aliceWebsite}`],
  ["GET", `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`],
  ["GET", `/v2/apps/${SEED_APPS.aliceWebsite}/deployments`],
  ["POST", `/v2/apps/${SEED_APPS.aliceWebsite}/snapshots`],
  ["GET", `/v2/apps/${SEED_APPS.aliceWebsite}/snapshots`],
  ["PATCH", `/v2/apps/${SEED_APPS.aliceWebsite}/files`],
  ["POST", "/v2/databases"],
  ["GET", `/v2/databases/${SEED_DATABASES.aliceCache}`],
  ["PATCH", `/v2/databases/${SEED_DATABASES.aliceCache}`],
  ["DELETE", `/v2/databases/${SEED_DATABASES.aliceCache}`],
  ["GET", `/v2/databases/${SEED_DATABASES.aliceCache}/metrics`],
  ["GET", `/v2/databases/${SEED_DATABASES.aliceCache}/credentials/certificate`],
  ["POST", `/v2/databases/${SEED_DATABASES.aliceCache}/credentials/reset`],
  ["GET", `/v2/databases/${SEED_DATABASES.aliceCache}/snapshots`],
  ["POST", `/v2/databases/${SEED_DATABASES.aliceCache}/snapshots/restore`],
  ["GET", "/v2/workspaces"],
  ["POST", "/v2/workspaces"],
  ["DELETE", "/v2/workspaces"],
  ["GET", "/v2/workspaces/f4baa585916f98ab6add6316"],
  ["DELETE", "/v2/workspaces/leave"],
  ["GET", "/v2/workspaces/members/code"],
  ["POST", "/v2/workspaces/members"],
  ["PATCH", "/v2/workspaces/members"],
  ["DELETE", "/v2/workspaces/members"],
  ["POST", "/v2/workspaces/applications"],
  ["DELETE", "/v2/workspaces/applications"],
];
const BLOB_ROUTES: [string, string][] = [
  ["GET", "/v1/objects"],
  ["POST", "/v1/objects"],
  ["DELETE", "/v1/objects"],
  ["GET", "/v1/account/stats"],
];

describe("authentication", () => {
  test.each(PLATFORM_ROUTES)("platform %s %s without a key is 401 ACCESS_DENIED", async (method, path) => {
    expectError(await env.platform(method, path, { key: null }), 401, "ACCESS_DENIED");
  });

  test.each(BLOB_ROUTES)("blob %s %s without a key is 401 ACCESS_DENIED", async (method, path) => {
    expectError(await env.blob(method, path, { key: null }), 401, "ACCESS_DENIED");
  });

  test("unknown keys, prefixed keys and empty keys are refused", async () => {
    for (const key of ["712386490153278464-deadbeef", `Bearer ${KEYS.alice}`, "", "   "]) {
      expectError(await env.platform("GET", "/v2/users/me", { key }), 401, "ACCESS_DENIED");
      expectError(await env.blob("GET", "/v1/objects", { key }), 401, "ACCESS_DENIED");
    }
  });

  test("a refused request changes nothing", async () => {
    expectError(
      await env.platform("POST", "/v2/databases", {
        key: "nope",
        json: { name: "x", memory: 512, type: "redis", version: "7.0" },
      }),
      401,
      "ACCESS_DENIED",
    );
    const me = expectSuccess(await env.platform("GET", "/v2/users/me"));
    expect(me.databases).toHaveLength(2);
  });

  test("seeded keys have the <numeric account id>-<hex> shape", () => {
    for (const account of env.emu.accounts) {
      expect(account.apiKey).toMatch(/^\d+-[0-9a-f]+$/);
      expect(account.apiKey.split("-")[0]).toBe(account.accountId);
    }
    expect(env.emu.accounts[0]).toEqual(SEED_ACCOUNTS.alice);
    expect(env.emu.accounts.length).toBeGreaterThanOrEqual(3);
  });
});

describe("GET /v2/users/me", () => {
  test("returns user, plan memory, applications and databases", async () => {
    const me = expectSuccess(await env.platform("GET", "/v2/users/me"));
    expect(me.user).toEqual({
      id: SEED_ACCOUNTS.alice.accountId,
      name: SEED_ACCOUNTS.alice.name,
      email: SEED_ACCOUNTS.alice.email,
      locale: "en-US",
      created_at: expect.any(String),
      plan: {
        name: "standard-8",
        memory: { limit: 8192, used: SEED_MEMORY_USED_MB.alice, available: 8192 - SEED_MEMORY_USED_MB.alice },
        duration: expect.any(Number),
      },
    });
    expect(me.user.plan.duration).toBeGreaterThan(Date.now());
    expect(me.applications.map((a: { id: string }) => a.id).sort()).toEqual(
      [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceBot].sort(),
    );
    for (const app of me.applications) {
      expect(Object.keys(app).sort()).toEqual([
        "cluster",
        "created_at",
        "custom",
        "desc",
        "domain",
        "id",
        "lang",
        "name",
        "ram",
      ]);
    }
    expect(me.databases).toHaveLength(2);
  });

  test("database items never carry the password or the certificate, not even inside connection_url", async () => {
    const created = expectSuccess(
      await env.platform("POST", "/v2/databases", {
        json: { name: "cache2", memory: 512, type: "redis", version: "7.4.5" },
      }),
    );
    const me = await env.platform("GET", "/v2/users/me");
    const text = JSON.stringify(me.body);
    expect(text).not.toContain(created.password);
    const item = me.body.response.databases.find((d: { id: string }) => d.id === created.id);
    expect(item).toEqual({
      id: created.id,
      name: "cache2",
      memory: 512,
      cpu: expect.any(Number),
      type: "redis",
      connection_url: expect.stringMatching(/^redis:\/\/default@square-cloud-db-[0-9a-f]+\.squareweb\.app:\d+$/),
      cluster: expect.any(String),
      created_at: expect.any(String),
    });
  });

  test("plan memory used counts a stopped database's allocation: only a resize or delete frees it", async () => {
    const bob = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.bob }));
    const appsRam = bob.applications.reduce((sum: number, a: { ram: number }) => sum + a.ram, 0);
    // bob's one database, bobLegacy (512 MB), is stopped.
    expect(bob.databases).toEqual([expect.objectContaining({ id: SEED_DATABASES.bobLegacy, memory: 512 })]);
    expect(bob.user.plan.memory.used).toBe(appsRam + 512);
    expect(bob.user.plan.memory.used).toBe(SEED_MEMORY_USED_MB.bob);
    expect(bob.user.plan.memory.available).toBe(bob.user.plan.memory.limit - SEED_MEMORY_USED_MB.bob);
  });

  test("each account sees only its own plan and resources", async () => {
    const carol = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.carol }));
    expect(carol.user.plan).toMatchObject({ name: "free", memory: { limit: 1024, used: 256, available: 768 } });
    expect(carol.applications.map((a: { id: string }) => a.id)).toEqual([SEED_APPS.carolBot]);
    expect(carol.databases).toEqual([]);
    const dave = expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.dave }));
    expect(dave).toMatchObject({
      applications: [],
      databases: [],
      user: { plan: { memory: { used: 0, available: 2048 } } },
    });
  });

  test("databases consume plan memory: used and available follow creation, resize and deletion", async () => {
    const memory = async () => expectSuccess(await env.platform("GET", "/v2/users/me")).user.plan.memory;
    const before = await memory();
    const db = expectSuccess(
      await env.platform("POST", "/v2/databases", {
        json: { name: "big", memory: 1024, type: "mongo", version: "7.0" },
      }),
    );
    expect(await memory()).toEqual({ limit: 8192, used: before.used + 1024, available: before.available - 1024 });
    expectSuccess(await env.platform("PATCH", `/v2/databases/${db.id}`, { json: { ram: 2048 } }));
    expect(await memory()).toEqual({ limit: 8192, used: before.used + 2048, available: before.available - 2048 });
    expectSuccess(await env.platform("DELETE", `/v2/databases/${db.id}`));
    expect(await memory()).toEqual(before);
  });
});

describe("GET /v2/users/snapshots", () => {
  test("defaults to application snapshots, newest first, with pre-signed keys", async () => {
    const entries = expectSuccess(await env.platform("GET", "/v2/users/snapshots"));
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect(entry).toEqual({
        name: expect.any(String),
        size: expect.any(Number),
        modified: expect.any(String),
        key: expect.any(String),
      });
      const key = new URLSearchParams(entry.key);
      expect([...key.keys()]).toEqual(["AWSAccessKeyId", "Expires", "Signature"]);
    }
    const times = entries.map((e: { modified: string }) => Date.parse(e.modified));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  test("scope=databases lists database snapshots whose keys carry versionId", async () => {
    const entries = expectSuccess(await env.platform("GET", "/v2/users/snapshots?scope=databases"));
    const versions = entries.map((e: { key: string }) => new URLSearchParams(e.key).get("versionId"));
    expect(versions.sort()).toEqual(
      [...SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache, ...SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain].sort(),
    );
    const times = entries.map((e: { modified: string }) => Date.parse(e.modified));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  test("an unknown scope is 400 INVALID_SCOPE", async () => {
    expectError(await env.platform("GET", "/v2/users/snapshots?scope=everything"), 400, "INVALID_SCOPE");
  });
});
