import {
  type RequestLogEntry,
  type RunningEmulator,
  SEED_ACCOUNTS,
  SEED_APPS,
  SEED_BLOB_OBJECTS,
  SEED_DATABASE_SNAPSHOT_VERSIONS,
  SEED_DATABASES,
  SEED_WORKSPACES,
} from "../../../emulator";
import * as sq from "../../../sdk/nodejs";
import { type EmulatorSuite, emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { type ProgramStackOptions, SECRET_SIG } from "../harness/stack";
import {
  expectOneReadEach,
  expectSnapshotKeysSealed,
  type FunctionCall,
  type FunctionsProgram,
  readCalls,
} from "./data-source-reads";

const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

/** When the emulator served the program's request to `path` (one of `route`'s), on its clock. */
function servedAt(log: RequestLogEntry[], route: string, path: string): number {
  const entry = log.find((request) => request.route === route && request.path === path && request.status === 200);
  if (!entry) throw new Error(`the program made no successful request to ${path}`);
  return Date.parse(entry.at);
}

/**
 * The API's answer to `read` as it was at `epochMs`: metrics and analytics follow the clock in
 * buckets (5 minutes, an hour), one of which may have ended since the program read. The
 * emulator's clock goes back there for the read, then on to where it would be.
 */
async function answerAt<T>({ emulator }: EmulatorSuite, epochMs: number, read: () => Promise<T>): Promise<T> {
  const now = await emulator.admin.clock();
  const started = Date.now();
  await emulator.admin.setClock(epochMs);
  try {
    return await read();
  } finally {
    await emulator.admin.setClock(now + (Date.now() - started));
  }
}

/** The website's daily analytics as the API answered when the program (whose requests `log` holds) read them. */
export function websiteAnalyticsAsRead(suite: EmulatorSuite, log: RequestLogEntry[]) {
  const path = `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`;
  return answerAt(suite, servedAt(log, "GET /v2/apps/:id/network/analytics", path), () =>
    suite.api.appAnalytics(SEED_APPS.aliceWebsite, "daily"),
  );
}

/** The cache database's metrics as the API answered when the program (whose requests `log` holds) read them. */
export function cacheMetricsAsRead(suite: EmulatorSuite, log: RequestLogEntry[]) {
  const path = `/v2/databases/${SEED_DATABASES.aliceCache}/metrics`;
  return answerAt(suite, servedAt(log, "GET /v2/databases/:id/metrics", path), () =>
    suite.api.databaseMetrics(SEED_DATABASES.aliceCache),
  );
}

/**
 * Every data source, by the output its result is exported as: the reads of the data-source
 * lifecycle on the seed's objects, and the reads only the seed allows.
 */
function everyFunction(): Record<string, FunctionCall> {
  return {
    ...readCalls({
      app: { id: SEED_APPS.aliceWebsite, name: "Alice Bot" },
      metricsDatabase: SEED_DATABASES.aliceCache,
      snapshotDatabase: SEED_DATABASES.aliceMain,
      workspace: SEED_WORKSPACES.aliceTeam,
    }),
    pythonApps: { fn: "getApps", args: { language: "python" } },
    // The same app and range again: the plugin must still make one request.
    appAnalyticsDaily: { fn: "getAppAnalytics", args: { appId: SEED_APPS.aliceWebsite, range: "daily" } },
    // Another account, through the explicit provider: bob's account, and an app linked to his workspace.
    bobAccount: { fn: "getAccount", via: "bob" },
    apiSeenByBob: { fn: "getApp", args: { id: SEED_APPS.aliceApi }, via: "bob" },
  };
}

/**
 * Every data source read from a program of another language than TypeScript, served by the native
 * plugin: the values the emulator holds, the reads the TypeScript SDK makes (one per thing read),
 * a bad argument refused with the TypeScript SDK's message before any request, and a function
 * invoked through an explicit provider reading that provider's account. Defines the tests of the
 * calling file; `open` makes the stack from the calls. Returns the outputs of the program's `up`,
 * for the calling file's own tests.
 */
export function functionReads(
  open: (
    calls: Record<string, FunctionCall>,
    emulator: RunningEmulator,
    options: Omit<ProgramStackOptions, "program">,
  ) => Promise<FunctionsProgram>,
): { outputs(): Record<string, any> } {
  const suite = emulatorSuite();
  const alice = SEED_ACCOUNTS.alice;
  const bob = SEED_ACCOUNTS.bob;
  let program: FunctionsProgram;
  let out: Record<string, any>;
  let log: RequestLogEntry[];

  describe("every data source in one program", () => {
    beforeAll(async () => {
      program = await open(everyFunction(), suite.emulator, {
        config: { ...emulatorConfig(suite.emulator), bobKey: { value: bob.apiKey, secret: true } },
      });
      suite.keep(program);
      await suite.emulator.admin.clearRequests();
      const up = await program.stack.up();
      log = await suite.emulator.admin.requests();
      out = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value]));
    });

    test("getAccount, getApps and getApp read what the emulator holds", async () => {
      const account = await suite.api.me();
      expect(out.account.user).toMatchObject({
        id: alice.accountId,
        email: alice.email,
        plan: { name: account.user.plan.name, memory: account.user.plan.memory },
      });
      expect(out.account.applications.map((app: any) => app.id).sort()).toEqual(
        account.applications.map((app) => app.id).sort(),
      );
      expect(out.account.databases.map((db: any) => db.id).sort()).toEqual(account.databases.map((db) => db.id).sort());
      for (const db of out.account.databases) expect(db).not.toHaveProperty("connectionUrl");
      expect(out.apps.apps).toEqual(out.account.applications);
      expect(out.pythonApps.apps.map((app: any) => app.id)).toEqual([SEED_APPS.aliceBot]);
      expect(out.appById).toMatchObject({
        id: SEED_APPS.aliceWebsite,
        owner: alice.accountId,
        language: "javascript",
        customDomain: "www.alice.example",
      });
      expect(out.appByName).toMatchObject({ id: SEED_APPS.aliceBot, language: "python" });
      expect(out.appByName).not.toHaveProperty("domain");
    });

    test("getAppAnalytics, getAppDeployments and getDatabaseMetrics as the API computes them", async () => {
      const analytics = await websiteAnalyticsAsRead(suite, log);
      expect(out.appAnalytics).toMatchObject({
        appId: SEED_APPS.aliceWebsite,
        range: "daily",
        visits: analytics.visits,
        countries: analytics.countries,
      });
      expect(out.appAnalyticsDaily).toEqual(out.appAnalytics);
      const deployments = await suite.api.appDeployments(SEED_APPS.aliceWebsite);
      // Each with the branch its clone event names (the seed's clone in "main").
      const branchOf = (events: { branch?: string }[]) => events.find((event) => event.branch)?.branch;
      expect(out.appDeployments.deployments.map((d: any) => ({ id: d.id, branch: d.branch })).sort(byId)).toEqual(
        deployments.map((events) => ({ id: events[0]!.id, branch: branchOf(events) })).sort(byId),
      );
      expect(out.appDeployments.deployments.map((d: any) => d.branch)).toContain("main");
      const metrics = await cacheMetricsAsRead(suite, log);
      expect(out.databaseMetrics.databaseId).toBe(SEED_DATABASES.aliceCache);
      expect(out.databaseMetrics.points[0]).toEqual(
        metrics.reduce((latest, point) => (Date.parse(point.date) > Date.parse(latest.date) ? point : latest)),
      );
    });

    test("getSnapshots and getLatestDatabaseSnapshot; every snapshot key is a secret, encrypted in state", async () => {
      const versionsOf = (databaseId: string) =>
        out.databaseSnapshots.entries.filter((e: any) => e.name === databaseId).map((e: any) => e.versionId);
      expect(versionsOf(SEED_DATABASES.aliceMain)).toEqual(SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain);
      expect(out.appSnapshots.scope).toBe("applications");
      expect(out.latestDatabaseSnapshot).toMatchObject({
        name: SEED_DATABASES.aliceMain,
        versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0],
      });
      await expectSnapshotKeysSealed(program, out);
      const stored = (await program.resources()).find((resource) => resource.type === "pulumi:pulumi:Stack")!
        .outputs as Record<string, unknown>;
      expect(stored.latestDatabaseSnapshot).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
      // Secret because of the key, not all results: one without a credential is stored as it is.
      expect(stored.workspaces).not.toHaveProperty(SECRET_SIG);
    });

    test("getWorkspaces, getWorkspace by id and by name, getBlobObjects and getBlobStats", async () => {
      expect(out.workspaces.workspaces.map((w: any) => w.id)).toEqual([SEED_WORKSPACES.aliceTeam.id]);
      expect(out.workspaceById).toMatchObject({ id: SEED_WORKSPACES.aliceTeam.id, owner: alice.accountId });
      expect(out.workspaceById.applications).toEqual([
        { id: SEED_APPS.aliceApi, name: "Alice API", ram: 512, language: "typescript" },
      ]);
      // The one type of a linked application, the Workspace resource's: `lang` kept for a release.
      expect(out.workspaceById.linkedApplications).toEqual([
        { id: SEED_APPS.aliceApi, name: "Alice API", ram: 512, language: "typescript", lang: "typescript" },
      ]);
      expect(out.workspaceByName).toEqual(out.workspaceById);
      expect(out.objects.objects.map((o: any) => o.id).sort()).toEqual(Object.values(SEED_BLOB_OBJECTS).sort());
      expect(out.blobStats).toEqual(await suite.api.accountStats());
    });

    test("the explicit provider reads its own account", () => {
      expect(out.bobAccount.user.id).toBe(bob.accountId);
      expect(out.bobAccount.applications.map((app: any) => app.id)).toContain(SEED_APPS.bobPortfolio);
      expect(out.apiSeenByBob).toMatchObject({ id: SEED_APPS.aliceApi, owner: alice.accountId });
    });

    test("the reads the TypeScript SDK makes: one per account, scope, app and range, nothing read twice", () => {
      // Two providers: the stack's and bob's.
      expectOneReadEach(log, 2);
    });

    test("no key reaches the state or the output in plain text", () => {
      expect(program.backendText()).not.toContain(alice.apiKey);
      expect(program.backendText()).not.toContain(bob.apiKey);
    });
  });

  test("a bad argument is refused with the TypeScript SDK's message, before any request", async () => {
    const args = { id: "not an id!" };
    const message = await sq.getApp(args).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^getApp: id must be/);
    await program.setCalls({ app: { fn: "getApp", args } });
    await suite.emulator.admin.clearRequests();
    const failure = await program.stack.preview().then(
      () => "",
      (error: Error) => String(error),
    );
    expect(failure).toContain(message);
    expect(await suite.emulator.admin.requests()).toEqual([]);
  });

  return { outputs: () => out };
}
