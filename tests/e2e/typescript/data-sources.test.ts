import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  type RequestLogEntry,
  type RunningEmulator,
  SEED_ACCOUNTS,
  SEED_APPS,
  SEED_BLOB_OBJECTS,
  SEED_DATABASE_SNAPSHOT_VERSIONS,
  SEED_DATABASES,
  SEED_MEMORY_USED_MB,
  SEED_WORKSPACES,
  startEmulator,
} from "../../../emulator";
import { buildSeedData } from "../../../emulator/seed";
import { STATE_FILE } from "../../../emulator/store/file-store";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { ANALYTICS_ARRAYS } from "../../analytics-arrays";
import { cacheMetricsAsRead, websiteAnalyticsAsRead } from "../lifecycles/function-reads";
import { programStack, type ProgramStack, SECRET_SIG } from "../harness/stack";

// Every data source read by a real program through the real engine, against the emulator's seed.

const suite = emulatorSuite();
const alice = SEED_ACCOUNTS.alice;

const BULK_PREFIX = "bulk";
/** One more than a listing page holds, so the listing needs a second page. */
const BULK_COUNT = 1001;

const ids = {
  website: SEED_APPS.aliceWebsite,
  bot: SEED_APPS.aliceBot,
  api: SEED_APPS.aliceApi,
  cache: SEED_DATABASES.aliceCache,
  main: SEED_DATABASES.aliceMain,
  workspace: SEED_WORKSPACES.aliceTeam.id,
  workspaceName: SEED_WORKSPACES.aliceTeam.name,
  blobPrefix: BULK_PREFIX,
};

/** Uploads through the client, four at a time (the account's limit of uploads in flight). */
async function uploadBulkObjects(): Promise<string[]> {
  const names = Array.from({ length: BULK_COUNT }, (_, i) => `item_${String(i).padStart(4, "0")}`);
  const uploaded: string[] = [];
  const worker = async () => {
    for (let name = names.pop(); name !== undefined; name = names.pop()) {
      const object = await suite.api.uploadObject({
        name,
        prefix: BULK_PREFIX,
        content: Buffer.alloc(1024, name),
        mimeType: "text/plain",
      });
      uploaded.push(object.id);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return uploaded;
}

function isOrdered(dates: string[], direction: "newest first" | "oldest first"): boolean {
  const times = dates.map((date) => Date.parse(date));
  return times.every(
    (time, i) => i === 0 || (direction === "newest first" ? times[i - 1]! >= time : times[i - 1]! <= time),
  );
}

function requestsTo(log: RequestLogEntry[], route: string, path?: string): number {
  return log.filter((entry) => entry.route === route && (path === undefined || entry.path === path)).length;
}

describe("data sources read in one program", () => {
  let program: ProgramStack;
  let out: Record<string, any>;
  let log: RequestLogEntry[];
  let bulkIds: string[];

  beforeAll(async () => {
    bulkIds = await uploadBulkObjects();
    program = suite.keep(
      await programStack({
        program: "data-sources",
        config: {
          ...emulatorConfig(suite.emulator),
          ids: { value: JSON.stringify(ids) },
          memberApiKey: { value: SEED_ACCOUNTS.bob.apiKey, secret: true },
        },
      }),
    );
    await suite.emulator.admin.clearRequests();
    const up = await program.stack.up();
    expect(up.summary.result).toBe("succeeded");
    log = await suite.emulator.admin.requests();
    out = (await program.stack.outputs()).result!.value;
  });

  test("getAccount: the user, the plan's memory, the applications and databases", () => {
    const { user, applications, databases } = out.account;
    expect(user).toMatchObject({ id: alice.accountId, name: alice.name, email: alice.email });
    expect(user.plan).toMatchObject({
      name: "standard-8",
      memory: { limit: 8192, used: SEED_MEMORY_USED_MB.alice, available: 8192 - SEED_MEMORY_USED_MB.alice },
    });
    expect(Date.parse(user.plan.periodEnd)).toBeGreaterThan(Date.now());
    expect(applications.map((a: any) => a.id).sort()).toEqual(
      [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceBot].sort(),
    );
    expect(databases.map((d: any) => [d.id, d.name, d.type]).sort()).toEqual(
      [
        [SEED_DATABASES.aliceCache, "cache", "redis"],
        [SEED_DATABASES.aliceMain, "main", "mongo"],
      ].sort(),
    );
    for (const db of databases) expect(db).not.toHaveProperty("connectionUrl");
  });

  test("getApps lists the account's apps and filters by name, language and cluster", () => {
    expect(out.apps.apps).toHaveLength(3);
    const website = out.apps.apps.find((a: any) => a.id === SEED_APPS.aliceWebsite);
    expect(website).toMatchObject({
      name: "Alice Website",
      description: "Marketing site",
      ram: 512,
      language: "javascript",
      domain: "alice-site.squareweb.app",
      customDomain: "www.alice.example",
      cluster: "florida-1",
    });
    expect(out.pythonApps.apps.map((a: any) => a.name)).toEqual(["Alice Bot"]);
    expect(out.florida1Apps.apps).toHaveLength(3);
    expect(out.appsNamedApi.apps.map((a: any) => a.id)).toEqual([SEED_APPS.aliceApi]);
    expect(out.appsNowhere.apps).toEqual([]);
  });

  test("getApp by id and by name", () => {
    expect(out.websiteById).toMatchObject({
      id: SEED_APPS.aliceWebsite,
      name: "Alice Website",
      owner: alice.accountId,
      language: "javascript",
      customDomain: "www.alice.example",
    });
    expect(out.botByName).toMatchObject({
      id: SEED_APPS.aliceBot,
      owner: alice.accountId,
      language: "python",
      ram: 256,
    });
    // The API sends "" for a bot's domain: no domain at all.
    expect(out.botByName).not.toHaveProperty("domain");
  });

  test("options read another account: a workspace member gets a linked app by id; the key keeps it secret", async () => {
    expect(out.memberId).toBe(SEED_ACCOUNTS.bob.accountId);
    expect(out.apiSeenByMember).toMatchObject({ id: SEED_APPS.aliceApi, name: "Alice API", owner: alice.accountId });
    const [stackResource] = await program.resources();
    const stored = (stackResource!.outputs as any).result;
    expect(stored.apiSeenByMember).toMatchObject({ [SECRET_SIG]: expect.any(String) });
    expect(program.backendText()).not.toContain(SEED_ACCOUNTS.bob.apiKey);
  });

  test("getAppAnalytics: the ten arrays as the API computes them; an app without a website has ten empty ones", async () => {
    const website = out.websiteAnalytics;
    expect(website).toMatchObject({ appId: SEED_APPS.aliceWebsite, range: "daily" });
    const live = await websiteAnalyticsAsRead(suite, log);
    for (const name of ANALYTICS_ARRAYS) expect(website[name]).toEqual(live[name as keyof typeof live]);
    expect(website.visits).toHaveLength(24);
    expect(website.countries.map((c: any) => c.type)).toEqual(["BR", "US", "PT", "DE", "IN"]);
    expect(out.websiteAnalyticsVisits).toEqual(website.visits);
    expect(out.websiteAnalyticsCountries).toEqual(website.countries);

    expect(out.apiWeeklyAnalytics).toMatchObject({ appId: SEED_APPS.aliceApi, range: "weekly" });
    expect(out.apiWeeklyAnalytics.visits).toHaveLength(7);

    for (const name of ANALYTICS_ARRAYS) expect(out.botAnalytics[name]).toEqual([]);
  });

  test("one request per app and range for analytics, and no read made twice in the program", () => {
    const analytics = "GET /v2/apps/:id/network/analytics";
    expect(requestsTo(log, analytics, `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`)).toBe(1);
    expect(requestsTo(log, analytics)).toBe(3);
    // getAccount, four getApps and getApp by name all come from one read of the account; the
    // other account is read once too.
    expect(requestsTo(log, "GET /v2/users/me")).toBe(2);
    // Each scope once, although the latest-snapshot lookups read the databases scope again.
    expect(requestsTo(log, "GET /v2/users/snapshots")).toBe(2);
    // Two pages for the prefix, two for everything.
    expect(requestsTo(log, "GET /v1/objects")).toBe(4);
    // Every other read once. The log has no queries or keys, so the routes above (scope, page,
    // account) are left out.
    const shared = ["GET /v2/users/me", "GET /v2/users/snapshots", "GET /v1/objects"];
    const counts = new Map<string, number>();
    for (const { route, path } of log) if (!shared.includes(route)) counts.set(path, (counts.get(path) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
    expect(counts.size).toBe(11);
    expect(log.every((entry) => entry.status === 200)).toBe(true);
  });

  test("getAppDeployments: deployments most recent first, events earliest first, the final state", async () => {
    const { appId, deployments } = out.websiteDeployments;
    expect(appId).toBe(SEED_APPS.aliceWebsite);
    const live = await suite.api.appDeployments(SEED_APPS.aliceWebsite);
    expect(deployments.map((d: any) => d.id).sort()).toEqual(live.map((events) => events[0]!.id).sort());
    expect(deployments.length).toBeGreaterThan(1);
    expect(deployments.length).toBeLessThanOrEqual(10);
    expect(
      isOrdered(
        deployments.map((d: any) => d.startedAt),
        "newest first",
      ),
    ).toBe(true);
    for (const deployment of deployments) {
      expect(deployment.events.map((e: any) => e.state).slice(0, 2)).toEqual(["pending", "clone"]);
      expect(
        isOrdered(
          deployment.events.map((e: any) => e.date),
          "oldest first",
        ),
      ).toBe(true);
      const last = deployment.events[deployment.events.length - 1];
      expect(deployment).toMatchObject({
        state: last.state,
        updatedAt: last.date,
        startedAt: deployment.events[0].date,
      });
      expect(["success", "error"]).toContain(deployment.state);
    }
    // The seed fails every fifth deployment; the 24-hour window holds the fourth.
    expect(deployments.map((d: any) => d.state)).toContain("error");
  });

  test("getDatabaseMetrics: one point per 5 minutes, most recent first", async () => {
    const { databaseId, points } = out.cacheMetrics;
    expect(databaseId).toBe(SEED_DATABASES.aliceCache);
    const live = await cacheMetricsAsRead(suite, log);
    expect(points.length).toBeGreaterThan(10);
    expect(points[0]).toEqual(live[0]);
    const times = points.map((p: any) => Date.parse(p.date));
    for (let i = 1; i < times.length; i++) expect(times[i - 1] - times[i]).toBe(5 * 60_000);
    expect(points[0].net).toHaveLength(2);
  });

  test("getSnapshots: entries with their versionId, most recent first; the latest of a database", () => {
    const entries = out.databaseSnapshots.entries;
    expect(out.databaseSnapshots.scope).toBe("databases");
    const versionsOf = (databaseId: string) =>
      entries.filter((e: any) => e.name === databaseId).map((e: any) => e.versionId);
    expect(versionsOf(SEED_DATABASES.aliceCache)).toEqual(SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache);
    expect(versionsOf(SEED_DATABASES.aliceMain)).toEqual(SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain);
    expect(versionsOf(SEED_DATABASES.bobLegacy)).toEqual([]);
    expect(
      isOrdered(
        entries.map((e: any) => e.modified),
        "newest first",
      ),
    ).toBe(true);
    for (const entry of entries)
      expect(Object.keys(entry).sort()).toEqual(["key", "modified", "name", "size", "versionId"]);

    expect(out.latestMainSnapshot).toMatchObject({
      name: SEED_DATABASES.aliceMain,
      versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0],
    });
    expect(out.latestCacheVersion).toBe(SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache[0]);

    const apps = out.appSnapshots.entries;
    expect(out.appSnapshots.scope).toBe("applications");
    expect(apps.map((e: any) => e.name)).toEqual([SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceWebsite]);
  });

  test("snapshot keys are secrets in state; no key reaches the backend in plain text", async () => {
    const [stackResource] = await program.resources();
    const stored = (stackResource!.outputs as any).result;
    const storedEntries = [
      ...stored.databaseSnapshots.entries,
      ...stored.appSnapshots.entries,
      stored.latestMainSnapshot,
    ];
    for (const entry of storedEntries) {
      expect(entry.key).toMatchObject({ [SECRET_SIG]: expect.any(String), ciphertext: expect.any(String) });
      expect(typeof entry.versionId === "string" || entry.versionId === undefined).toBe(true);
    }
    const backend = program.backendText();
    const keys = [...out.databaseSnapshots.entries, ...out.appSnapshots.entries].map((e: any) => e.key);
    expect(keys.length).toBe(8);
    for (const key of keys) expect(backend).not.toContain(key);
    expect(backend).not.toContain(alice.apiKey);
  });

  test("getWorkspaces and getWorkspace by id and by name", () => {
    expect(out.workspaces.workspaces.map((w: any) => w.id)).toEqual([SEED_WORKSPACES.aliceTeam.id]);
    const team = out.workspaceById;
    expect(team).toMatchObject({
      id: SEED_WORKSPACES.aliceTeam.id,
      name: SEED_WORKSPACES.aliceTeam.name,
      owner: alice.accountId,
    });
    expect(team.members.map((m: any) => [m.id, m.group])).toEqual([
      [alice.accountId, "owner"],
      [SEED_ACCOUNTS.bob.accountId, "admin"],
      [SEED_ACCOUNTS.dave.accountId, "view"],
    ]);
    expect(team.applications).toEqual([
      { id: SEED_APPS.aliceApi, name: "Alice API", ram: 512, language: "typescript" },
    ]);
    expect(out.workspaceByName).toEqual(team);
  });

  test("getBlobObjects follows every page; getBlobStats reports the account's usage", async () => {
    const prefixed = out.prefixedObjects.objects.map((o: any) => o.id);
    expect(prefixed).toHaveLength(BULK_COUNT);
    expect([...prefixed].sort()).toEqual([...bulkIds].sort());
    expect(out.prefixedObjects.prefix).toBe(BULK_PREFIX);

    const all = out.allObjects.objects;
    expect(all).toHaveLength(BULK_COUNT + 3);
    const seeded = all.filter((o: any) => Object.values(SEED_BLOB_OBJECTS).includes(o.id));
    expect(seeded).toHaveLength(3);
    const expiring = all.find((o: any) => o.id === SEED_BLOB_OBJECTS.aliceExport);
    expect(Date.parse(expiring.expiresAt)).toBeGreaterThan(Date.parse(expiring.createdAt));
    expect(all.find((o: any) => o.id === SEED_BLOB_OBJECTS.aliceLogo)).toMatchObject({ size: 24_576 });

    const stats = out.blobStats;
    expect(stats.usage.objects).toBe(BULK_COUNT + 3);
    expect(stats.usage.storage).toBe(all.reduce((sum: number, o: any) => sum + o.size, 0));
    expect(stats).toEqual(await suite.api.accountStats());
  });
});

const DUPLICATE_APP_ID = "a11ce0000000000000000000000000a2";

/** The text of the failure the CLI reported. */
async function failureOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String(error);
  }
  throw new Error("expected the program to fail");
}

describe("data sources that cannot answer fail the program clearly", () => {
  let duplicates: RunningEmulator;
  let dataDir: string;
  let program: ProgramStack;

  /** The seed plus a second application named "Alice API": a name lookup then has two candidates. */
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "squarecloud-duplicates-"));
    const data = buildSeedData(Date.now());
    const original = data.apps.find((app) => app.id === SEED_APPS.aliceApi)!;
    data.apps.push({ ...original, id: DUPLICATE_APP_ID, deployments: [] });
    writeFileSync(path.join(dataDir, STATE_FILE), JSON.stringify(data));
    duplicates = await startEmulator({ dataDir, admin: true });
    const { "squarecloud:apiKey": _key, ...urlsOnly } = emulatorConfig(duplicates);
    program = suite.keep(
      await programStack({
        program: "data-sources",
        config: { ...urlsOnly, scenario: { value: "appByName" }, appName: { value: "Alice API" } },
        env: { SQUARECLOUD_API_KEY: "" },
      }),
    );
  });

  afterAll(async () => {
    await duplicates?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("without an API key the program says how to set one, and nothing is sent", async () => {
    await duplicates.admin.clearRequests();
    const message = await failureOf(program.stack.preview());
    expect(message).toContain(
      "error: Square Cloud API key is not set: run `pulumi config set squarecloud:apiKey --secret` or set the SQUARECLOUD_API_KEY",
    );
    // The message alone: no stack of SDK frames.
    expect(message).not.toMatch(/^\s+at /m);
    expect(await duplicates.admin.requests()).toEqual([]);
  });

  test("getApp by a name two applications share fails, naming both", async () => {
    await program.stack.setConfig("squarecloud:apiKey", { value: alice.apiKey, secret: true });
    const message = await failureOf(program.stack.preview());
    expect(message).toContain(
      `error: 2 applications are named "Alice API": "Alice API" (${SEED_APPS.aliceApi}), "Alice API" (${DUPLICATE_APP_ID}); look it up by id instead`,
    );
    expect(message).not.toContain(alice.apiKey);
  });
});
