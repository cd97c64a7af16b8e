import type { SnapshotEntry } from "../../../provider/client/payloads/platform";
import { TEST_PREFIX } from "../../../scripts/live/run-prefix";
import { ANALYTICS_ARRAYS } from "../../analytics-arrays";
import type { ReadsService, ServedRequest } from "../harness/service-suite";
import type { ProgramStack, ProgramStackOptions, StateResource } from "../harness/stack";

/**
 * A data source read by a program: the function's name as the schema spells it (`getApp`), its
 * arguments by their schema names, and whether it goes through the explicit provider `bob` (the
 * emulator's second account; the programs that declare it say so).
 */
export interface FunctionCall {
  fn: string;
  args?: Record<string, unknown>;
  via?: "bob";
}

/** A stack whose program exports each call's result under the call's key, as a stack output of its own. */
export interface FunctionsProgram extends ProgramStack {
  setCalls(calls: Record<string, FunctionCall>): void | Promise<void>;
}

/** The `open` of a data-source program: the stack from the calls, the service's config in `options`. */
export type OpenFunctionsProgram = (
  calls: Record<string, FunctionCall>,
  options: Omit<ProgramStackOptions, "program">,
) => Promise<FunctionsProgram>;

/** What one program reads besides the account's own listings. */
export interface ReadCallTargets {
  /** getApp by `id`, with its analytics and deployments; getApp by `name`, which one application alone has. */
  app?: { id: string; name: string };
  /** getDatabaseMetrics of this database. */
  metricsDatabase?: string;
  /** getLatestDatabaseSnapshot of this database, which must have a snapshot. */
  snapshotDatabase?: string;
  /** getWorkspace by its id and by its name. */
  workspace: { id: string; name: string };
  /** getBlobObjects of this prefix; of the whole account without. */
  blobPrefix?: string;
}

/** Every data source, by the output its result is exported as: what the targets allow. */
export function readCalls(targets: ReadCallTargets): Record<string, FunctionCall> {
  const { app, metricsDatabase, snapshotDatabase, workspace, blobPrefix } = targets;
  return {
    account: { fn: "getAccount" },
    apps: { fn: "getApps" },
    ...(app
      ? {
          appById: { fn: "getApp", args: { id: app.id } },
          appByName: { fn: "getApp", args: { name: app.name } },
          appAnalytics: { fn: "getAppAnalytics", args: { appId: app.id } },
          appDeployments: { fn: "getAppDeployments", args: { appId: app.id } },
        }
      : {}),
    ...(metricsDatabase
      ? { databaseMetrics: { fn: "getDatabaseMetrics", args: { databaseId: metricsDatabase } } }
      : {}),
    databaseSnapshots: { fn: "getSnapshots", args: { scope: "databases" } },
    appSnapshots: { fn: "getSnapshots" },
    ...(snapshotDatabase
      ? { latestDatabaseSnapshot: { fn: "getLatestDatabaseSnapshot", args: { databaseId: snapshotDatabase } } }
      : {}),
    workspaces: { fn: "getWorkspaces" },
    workspaceById: { fn: "getWorkspace", args: { id: workspace.id } },
    workspaceByName: { fn: "getWorkspace", args: { name: workspace.name } },
    objects: { fn: "getBlobObjects", ...(blobPrefix ? { args: { prefix: blobPrefix } } : {}) },
    blobStats: { fn: "getBlobStats" },
  };
}

/** The outputs of the stack resource, as stored in the state (secrets as ciphertext). */
function storedStackOutputs(resources: StateResource[]): Record<string, unknown> {
  return (resources.find((resource) => resource.type === "pulumi:pulumi:Stack")?.outputs ?? {}) as Record<
    string,
    unknown
  >;
}

/** The outputs of `readCalls` that hold snapshot entries, each with its pre-signed key. */
const SNAPSHOT_OUTPUTS = ["databaseSnapshots", "appSnapshots", "latestDatabaseSnapshot"] as const;

/**
 * Every snapshot key the program read is a secret: each output holding one is ciphertext in the
 * state (as a whole, or the key alone), and no key is in the backend's files in plain text.
 */
export async function expectSnapshotKeysSealed(program: ProgramStack, out: Record<string, any>): Promise<void> {
  const stored = storedStackOutputs(await program.resources());
  const backend = program.backendText();
  for (const name of SNAPSHOT_OUTPUTS) {
    const read = out[name];
    if (read === undefined) continue;
    const keys: unknown[] = (read.entries ?? [read]).map((entry: { key: unknown }) => entry.key);
    for (const key of keys)
      expect({ name, key: typeof key === "string" && key.length > 0 }).toEqual({ name, key: true });
    for (const key of keys as string[]) expect(backend).not.toContain(key);
    if (keys.length > 0)
      expect({ name, stored: JSON.stringify(stored[name]) }).toEqual({
        name,
        stored: expect.stringContaining('"ciphertext"'),
      });
  }
}

/**
 * The reads of one program run, `log` its requests: one account read per provider (the key's
 * check, which getAccount, getApps and getApp by name share), each snapshot scope once although the
 * latest-snapshot lookup reads the databases scope again, every other path once (an analytics
 * read once per app and range), each answered 200.
 */
export function expectOneReadEach(log: Pick<ServedRequest, "route" | "path" | "status">[], providers: number): void {
  const requestsTo = (route: string) => log.filter((entry) => entry.route === route).length;
  expect(requestsTo("GET /v2/users/me")).toBe(providers);
  expect(requestsTo("GET /v2/users/snapshots")).toBe(2);
  const shared = ["GET /v2/users/me", "GET /v2/users/snapshots"];
  const counts = new Map<string, number>();
  for (const { route, path } of log) if (!shared.includes(route)) counts.set(path, (counts.get(path) ?? 0) + 1);
  expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
  expect(log.filter((entry) => entry.status !== 200)).toEqual([]);
}

/** Deployments older than this may leave the service's 24-hour window between two reads (an hour spared for the clocks). */
const DEPLOYMENT_WINDOW_MS = 23 * 3_600_000;

const idsOf = (items: { id: string }[]) => items.map((item) => item.id).sort();

const newestFirst = (dates: string[]) =>
  dates.every((date, i) => i === 0 || Date.parse(dates[i - 1] as string) >= Date.parse(date));

/** A snapshot entry without its key, which each listing signs anew. */
const entryView = ({
  name,
  size,
  modified,
  versionId,
}: {
  name: string;
  size: number;
  modified: string;
  versionId?: string;
}) => ({
  name,
  size,
  modified,
  ...(versionId === undefined ? {} : { versionId }),
});

/**
 * The program read the scope as the API lists it right after: each entry it read is listed, and an
 * entry it did not read was taken since (the run's other files snapshot an application meanwhile).
 */
function expectListedSince(read: { entries: SnapshotEntry[] }, listed: SnapshotEntry[]): void {
  const readViews = read.entries.map(entryView);
  const listedViews = listed.map(entryView);
  for (const entry of readViews) expect(listedViews).toContainEqual(entry);
  const newestRead = Math.max(0, ...readViews.map((entry) => Date.parse(entry.modified)));
  const unread = listedViews.filter(
    (entry) => !readViews.some((seen) => JSON.stringify(seen) === JSON.stringify(entry)),
  );
  for (const entry of unread)
    expect({ entry, newer: Date.parse(entry.modified) > newestRead }).toEqual({ entry, newer: true });
  expect(newestFirst(read.entries.map((entry) => entry.modified))).toBe(true);
}

/** The newest of `entries` that belongs to `owner`. */
function newestOf<E extends { name: string; modified: string }>(entries: E[], owner: string): E | undefined {
  return entries
    .filter((entry) => entry.name === owner)
    .reduce<E | undefined>(
      (newest, entry) => (!newest || Date.parse(entry.modified) > Date.parse(newest.modified) ? entry : newest),
      undefined,
    );
}

/** `test` when the target is given, else a skipped test whose title says why. */
function testFor(target: string | { skip: string }, title: string, fn: (id: string) => Promise<void>): void {
  if (typeof target === "string") test(title, () => fn(target));
  else test.skip(`${title}: ${target.skip}`, () => undefined);
}

/**
 * Every data source read by one program against whatever service `service` names, compared with
 * what the service's API answers right after: nothing taken from a seed and no clock moved, so it
 * runs against the live service (tests/live) as against the emulator. It makes a workspace named
 * `prefix` and one blob object of 1 KiB under `prefix` through the API, for getWorkspace and
 * getBlobObjects to read, and deletes them at its end. The application and database it reads are
 * the service's (ReadTargets), each skipped with its reason when not given; values that move with
 * time (analytics, metrics, usage) are compared by id and shape. Defines the tests of the calling
 * file; `open` makes the stack from the calls.
 */
export function dataSourceReads<S extends ReadsService>(
  open: OpenFunctionsProgram,
  prefix: string,
  service: () => S,
): void {
  // Registered before the service's own hooks so that it runs before them, while the service's
  // client is open: the clean-up of a file that failed before its last test.
  afterAll(() => removeMade().catch(() => undefined));
  const suite = service();
  const targets = suite.readTargets();
  const made: { workspaceId?: string; objectId?: string } = {};
  let program: FunctionsProgram;
  let out: Record<string, any>;
  let log: ServedRequest[];
  /** The database's newest snapshot as the API listed it before the program read, if any. */
  let databaseSnapshot: SnapshotEntry | undefined;

  /**
   * Without the names the run's other files make and delete meanwhile (two files at a time): they
   * come and go between two readings.
   */
  const notOthers = <T extends { id: string; name: string }>(items: T[]) =>
    items.filter((item) => !item.name.startsWith(TEST_PREFIX) || item.name.startsWith(prefix));

  async function removeMade(): Promise<void> {
    const { workspaceId, objectId } = made;
    made.workspaceId = undefined;
    made.objectId = undefined;
    if (workspaceId) await suite.api.deleteWorkspace(workspaceId);
    if (objectId) await suite.api.deleteObject(objectId);
  }

  /** The app's name, which getApp by name reads: the account's own applications must give it to that one alone. */
  async function uniqueName(appId: string): Promise<string> {
    const { applications } = await suite.api.me();
    const name = applications.find((app) => app.id === appId)?.name;
    if (name === undefined) throw new Error(`application ${appId} is not one of the account's own`);
    const named = applications.filter((app) => app.name === name).length;
    if (named > 1)
      throw new Error(`getApp by name reads application ${appId} by its name, which ${named} applications have`);
    return name;
  }

  beforeAll(async () => {
    const { app, database } = targets;
    made.workspaceId = (await suite.api.createWorkspace(prefix)).id;
    // Expiring after a day should the run leak it.
    made.objectId = (
      await suite.api.uploadObject({
        name: "read",
        prefix,
        content: Buffer.alloc(1024, "r"),
        mimeType: "text/plain",
        expireDays: 1,
      })
    ).id;
    if (typeof database === "string") databaseSnapshot = newestOf(await suite.api.listSnapshots("databases"), database);
    const calls = readCalls({
      ...(typeof app === "string" ? { app: { id: app, name: await uniqueName(app) } } : {}),
      ...(typeof database === "string" ? { metricsDatabase: database } : {}),
      // The API makes no database snapshot: the database has one only when the service took it.
      ...(databaseSnapshot ? { snapshotDatabase: databaseSnapshot.name } : {}),
      workspace: { id: made.workspaceId, name: prefix },
      blobPrefix: prefix,
    });
    program = await open(calls, { config: suite.config() });
    suite.keep(program);
    await suite.log.clearRequests();
    const up = await program.stack.up();
    log = await suite.log.requests();
    out = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value]));
  });

  test("getAccount and getApps read the account as the API answers it", async () => {
    const account = await suite.api.me();
    expect(out.account.user).toMatchObject({
      id: suite.ownerId(),
      name: account.user.name,
      email: account.user.email,
      // What the plan's databases use moves with the run's other files.
      plan: { name: account.user.plan.name, memory: { limit: account.user.plan.memory.limit } },
    });
    expect(idsOf(out.account.applications)).toEqual(idsOf(account.applications));
    expect(idsOf(notOthers(out.account.databases))).toEqual(idsOf(notOthers(account.databases)));
    for (const db of out.account.databases) expect(db).not.toHaveProperty("connectionUrl");
    expect(out.apps.apps).toEqual(out.account.applications);
  });

  testFor(targets.app, "getApp by id and by name read the application as the API answers it", async (appId) => {
    const app = await suite.api.getApp(appId);
    expect(out.appById).toMatchObject({
      id: appId,
      name: app.name,
      owner: suite.ownerId(),
      ram: app.ram,
      language: app.language,
      cluster: app.cluster,
      createdAt: app.created_at,
    });
    expect(out.appByName).toEqual(out.appById);
  });

  testFor(
    targets.app,
    "getAppAnalytics and getAppDeployments: the application's, as the API shapes them",
    async (appId) => {
      const analytics = (await suite.api.appAnalytics(appId)) as Record<string, unknown>;
      expect(out.appAnalytics).toMatchObject({ appId, range: "daily" });
      const point = {
        visits: expect.any(Number),
        requests: expect.any(Number),
        bytes: expect.any(Number),
        date: expect.any(String),
      };
      for (const name of ANALYTICS_ARRAYS) {
        expect({ name, api: Array.isArray(analytics[name]), read: Array.isArray(out.appAnalytics[name]) }).toEqual({
          name,
          api: true,
          read: true,
        });
        for (const read of out.appAnalytics[name]) expect(read).toMatchObject(point);
      }

      const deployments = await suite.api.appDeployments(appId);
      const edge = Date.now() - DEPLOYMENT_WINDOW_MS;
      const started = (events: { date: string }[]) => Math.min(...events.map((event) => Date.parse(event.date)));
      expect(out.appDeployments.appId).toBe(appId);
      expect(idsOf(out.appDeployments.deployments.filter((d: any) => Date.parse(d.startedAt) > edge))).toEqual(
        deployments
          .filter((events) => started(events) > edge)
          .map((events) => events[0]?.id as string)
          .sort(),
      );
      expect(newestFirst(out.appDeployments.deployments.map((d: any) => d.startedAt))).toBe(true);
      for (const deployment of out.appDeployments.deployments) {
        const { events } = deployment;
        expect(deployment).toMatchObject({
          startedAt: events[0].date,
          updatedAt: events.at(-1).date,
          state: events.at(-1).state,
        });
      }
    },
  );

  testFor(
    targets.database,
    "getDatabaseMetrics: the database's points, as the API shapes them, newest first",
    async (databaseId) => {
      const points = await suite.api.databaseMetrics(databaseId);
      expect(out.databaseMetrics.databaseId).toBe(databaseId);
      const read: { date: string }[] = out.databaseMetrics.points;
      expect(read.length > 0).toBe(points.length > 0);
      const point = {
        date: expect.any(String),
        cpu: expect.any(Number),
        ram: expect.any(Number),
        net: [expect.any(Number), expect.any(Number)],
      };
      for (const each of read) expect(each).toEqual(point);
      expect(newestFirst(read.map((each) => each.date))).toBe(true);
    },
  );

  test("getSnapshots reads both scopes as the API lists them", async () => {
    const [apps, databases] = await Promise.all([
      suite.api.listSnapshots("applications"),
      suite.api.listSnapshots("databases"),
    ]);
    expect(out.appSnapshots.scope).toBe("applications");
    expect(out.databaseSnapshots.scope).toBe("databases");
    expectListedSince(out.appSnapshots, apps);
    expectListedSince(out.databaseSnapshots, databases);
  });

  testFor(
    targets.database,
    "getLatestDatabaseSnapshot: the database's newest snapshot, where it has one",
    async (databaseId) => {
      const ofDatabase = out.databaseSnapshots.entries.filter((entry: SnapshotEntry) => entry.name === databaseId);
      if (!databaseSnapshot) {
        process.stdout.write(
          `getLatestDatabaseSnapshot not read: the service lists no snapshot of database ${databaseId}\n`,
        );
        expect({ read: out.latestDatabaseSnapshot, entries: ofDatabase }).toEqual({ read: undefined, entries: [] });
        return;
      }
      expect(entryView(out.latestDatabaseSnapshot)).toEqual(
        entryView(newestOf(ofDatabase, databaseId) as SnapshotEntry),
      );
      expect(out.latestDatabaseSnapshot.versionId).toEqual(expect.any(String));
    },
  );

  test("every snapshot key is a secret, encrypted in state; no API key in state", async () => {
    await expectSnapshotKeysSealed(program, out);
    expect(program.backendText()).not.toContain(String(suite.config()["squarecloud:apiKey"]?.value));
  });

  test("getWorkspaces and getWorkspace by id and by name read the run's workspace as the API answers it", async () => {
    const [listed, workspace] = await Promise.all([
      suite.api.listWorkspaces(),
      suite.api.getWorkspace(made.workspaceId as string),
    ]);
    expect(idsOf(notOthers(out.workspaces.workspaces))).toEqual(idsOf(notOthers(listed)));
    expect(out.workspaceById).toMatchObject({
      id: workspace.id,
      name: prefix,
      owner: suite.ownerId(),
      createdAt: workspace.createdAt,
      applications: [],
      linkedApplications: [],
    });
    expect(out.workspaceById.members.map((m: any) => [m.id, m.group])).toEqual(
      workspace.members.map((m) => [m.id, m.group]),
    );
    expect(out.workspaceByName).toEqual(out.workspaceById);
  });

  test("getBlobObjects reads the run's object; getBlobStats the account's usage, as the API shapes it", async () => {
    const [objects, stats] = await Promise.all([suite.api.listAllObjects(prefix), suite.api.accountStats()]);
    expect(out.objects.prefix).toBe(prefix);
    expect(idsOf(out.objects.objects)).toEqual([made.objectId]);
    expect(idsOf(out.objects.objects)).toEqual(idsOf(objects));
    expect(out.objects.objects[0]).toMatchObject({ size: 1024, expiresAt: expect.any(String) });
    // Usage moves with the run's other files and is refreshed once a minute: its shape, and the plan.
    expect(out.blobStats.plan).toEqual(stats.plan);
    for (const part of ["usage", "billing"] as const)
      expect(Object.keys(out.blobStats[part]).sort()).toEqual(Object.keys(stats[part]).sort());
  });

  test("one read per thing read, each answered 200", () => {
    expectOneReadEach(log, 1);
  });

  test("reading again plans no change", async () => {
    const preview = await program.stack.preview({ expectNoChanges: true });
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });

  test("the run's workspace and object are deleted", async () => {
    await removeMade();
    expect((await suite.api.listWorkspaces()).filter((workspace) => workspace.name.startsWith(prefix))).toEqual([]);
  });
}
