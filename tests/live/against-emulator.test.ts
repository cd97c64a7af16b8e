import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { createClient, type SquareCloudClient } from "../../provider/client";
import { newRunPrefix, TEST_PREFIX } from "../../scripts/live/run-prefix";

// `npm run test:live` as CI can prove it: against the emulator started as its own process by its
// CLI, admin surface off, reached only by the URLs and keys it prints, as the service would be. The
// live suites pass there and leave nothing; then the sweeper, given leaks with and without the
// prefix, lists only the prefixed ones and deletes exactly those with --yes, nothing without.

const run = promisify(execFile);
const dist = path.join(__dirname, "..", "..");
const HOUR = 3_600_000;

jest.setTimeout(1_200_000);

interface EmulatorProcess {
  child: ChildProcessWithoutNullStreams;
  env: Record<string, string>;
  /** The seeded accounts' keys, in the order it lists them: the first is the one `env` names. */
  keys: string[];
  client: SquareCloudClient;
}

let emulator: EmulatorProcess;

/** The emulator's CLI on free ports, its settings read from what it prints, as a user reads them. */
async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [
    path.join(dist, "emulator", "cli.js"),
    "--platform-port",
    "0",
    "--blob-port",
    "0",
  ]);
  let printed = "";
  const exportLine = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      const line = /export (SQUARECLOUD_PLATFORM_URL=.*)$/m.exec(printed)?.[1];
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it printed its settings`)));
  });
  const env = Object.fromEntries(exportLine.split(" ").map((pair) => pair.split("=") as [string, string]));
  const accounts = printed.slice(printed.indexOf("Seeded accounts:"), printed.indexOf("Point a client at it:"));
  const keys = [...accounts.matchAll(/^ {2}.* (\S+)$/gm)].map((match) => match[1]);
  const client = createClient({
    apiKey: env.SQUARECLOUD_API_KEY,
    platformUrl: env.SQUARECLOUD_PLATFORM_URL,
    blobUrl: env.SQUARECLOUD_BLOB_URL,
  });
  return { child, env, keys, client };
}

beforeAll(async () => {
  emulator = await startEmulatorProcess();
});

afterAll(async () => {
  await emulator?.client.close();
  emulator?.child.kill("SIGTERM");
});

/** The account's databases, workspaces and blob objects, by name. */
async function everything(client: SquareCloudClient) {
  const [databases, workspaces, objects] = await Promise.all([
    client.listDatabases(),
    client.listWorkspaces(),
    client.listAllObjects(),
  ]);
  return {
    databases: databases.map((db) => db.name).sort(),
    workspaces: workspaces.map((workspace) => workspace.name).sort(),
    objects: objects.map((object) => object.id).sort(),
  };
}

test("the emulator serves no admin surface: the suite can reach it only as it reaches the service", async () => {
  const answer = await fetch(`${emulator.env.SQUARECLOUD_PLATFORM_URL}/__emulator/requests`);
  expect(answer.status).toBe(404);
});

test("npm run test:live passes against it and leaves nothing behind", async () => {
  const before = await everything(emulator.client);
  // The owner's applications, found as a maintainer finds theirs: by name, in the account's reading.
  const { applications } = await emulator.client.me();
  const appId = (name: string) => applications.find((app) => app.name === name)?.id as string;
  const apps = ["Alice Website", "Alice API", "Alice Bot"].map(appId);
  expect(apps.every(Boolean)).toBe(true);
  // The database the data sources read: the one with snapshots, found by name too.
  const database = (await emulator.client.listDatabases()).find((db) => db.name === "main")?.id as string;
  expect(database).toEqual(expect.any(String));
  const reportDir = mkdtempSync(path.join(tmpdir(), "live-report-"));
  try {
    const { stdout } = await run(process.execPath, [path.join(dist, "scripts", "live", "run.js")], {
      env: {
        ...process.env,
        ...emulator.env,
        SQUARECLOUD_LIVE: "1",
        SQUARECLOUD_LIVE_REPORT_DIR: reportDir,
        // The seed's second account (bob) as the invitee; the owner's three applications.
        SQUARECLOUD_LIVE_INVITEE_KEY: emulator.keys[1],
        SQUARECLOUD_LIVE_APPS: apps.join(","),
        SQUARECLOUD_LIVE_MOVE_FILE: "index.js",
        SQUARECLOUD_LIVE_DATABASE: database,
      },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(emulator.keys[1]).not.toBe(emulator.env.SQUARECLOUD_API_KEY);
    const parts = [
      "Workspace and WorkspaceMember",
      "AppSnapshot",
      "AppFileMove",
      "getApp, getAppAnalytics and getAppDeployments",
      "getDatabaseMetrics and getLatestDatabaseSnapshot",
    ];
    for (const part of parts) expect(stdout).toContain(`${part}: run`);
    const runPrefix = /run prefix (\w+)/.exec(stdout)?.[1] as string;
    expect(runPrefix.startsWith(TEST_PREFIX)).toBe(true);
    expect(stdout).toContain(`sweep of ${runPrefix}: 0 left behind, 0 deleted`);
    // What it made and the requests it sent, printed and kept as the report.
    expect(readFileSync(path.join(reportDir, "summary.txt"), "utf8")).toMatch(/made {4}POST \/v2\/databases/);
    expect(stdout).toMatch(/typescript-database\.live\.js: \d+ made, \d+ requests/);
    // The data-source files each made their workspace and blob object.
    for (const file of ["typescript-data-sources", "yaml-data-sources"])
      expect(stdout).toMatch(new RegExp(`${file}\\.live\\.js: 2 made, \\d+ requests`));
    // Nothing left: the listing of the run's prefix is its first, so not a cached one.
    expect(await emulator.client.listAllObjects(runPrefix)).toEqual([]);
    expect(await everything(emulator.client)).toEqual(before);
    // The moved file is back where it was: a move onto itself finds it.
    await expect(emulator.client.moveAppFile(apps[0], { path: "index.js", to: "index.js" })).resolves.toBeUndefined();
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});

describe("npm run sweep", () => {
  /** Leaked objects: a run's of 3 hours ago, one of a run still going, and others' own with no prefix. */
  const old = newRunPrefix(Date.now() - 3 * HOUR);
  const recent = newRunPrefix();
  const names = {
    oldDatabase: `${old}db`,
    recentDatabase: `${recent}db`,
    ownDatabase: "keepmine",
    embedded: `x${old}db`,
    oldWorkspace: `${old}ws`,
    ownWorkspace: "keep_mine",
  };
  const urls: Record<"oldObject" | "recentObject" | "ownObject", string> = {
    oldObject: "",
    recentObject: "",
    ownObject: "",
  };

  async function sweep(...args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [path.join(dist, "scripts", "live", "sweep.js"), ...args], {
      env: { ...process.env, ...emulator.env },
    });
    return stdout;
  }

  async function served(url: string): Promise<number> {
    return (await fetch(url)).status;
  }

  async function databaseNames(): Promise<string[]> {
    return (await emulator.client.listDatabases()).map((db) => db.name);
  }

  async function workspaceNames(): Promise<string[]> {
    return (await emulator.client.listWorkspaces()).map((workspace) => workspace.name);
  }

  beforeAll(async () => {
    const { client } = emulator;
    for (const name of [names.oldDatabase, names.recentDatabase, names.ownDatabase, names.embedded])
      await client.createDatabase({ name, type: "redis", memory: 512, version: "7.4.5" });
    for (const name of [names.oldWorkspace, names.ownWorkspace]) await client.createWorkspace(name);
    const upload = async (prefix: string) =>
      (await client.uploadObject({ name: "leak", prefix, content: Buffer.alloc(2048, 1), mimeType: "text/plain" })).url;
    urls.oldObject = await upload(old);
    urls.recentObject = await upload(recent);
    urls.ownObject = await upload("keepmine");
  });

  test("without --yes it lists the prefixed leaks older than the age and deletes nothing", async () => {
    const stdout = await sweep("--older-than", "1h");
    expect(stdout).toContain("sweep: 3 leaked");
    for (const listed of [`database    ${names.oldDatabase}`, `workspace   ${names.oldWorkspace}`, `${old}/leak`])
      expect(stdout).toContain(listed);
    for (const unlisted of [names.recentDatabase, names.ownDatabase, names.embedded, names.ownWorkspace, recent])
      expect(stdout).not.toContain(`  ${unlisted}`);
    expect(stdout).toContain("nothing deleted (a dry run)");
    expect(await databaseNames()).toEqual(
      expect.arrayContaining([names.oldDatabase, names.recentDatabase, names.ownDatabase, names.embedded]),
    );
    expect(await workspaceNames()).toEqual(expect.arrayContaining([names.oldWorkspace, names.ownWorkspace]));
    for (const url of Object.values(urls)) expect(await served(url)).toBe(200);
  });

  test("with --yes it deletes exactly those", async () => {
    expect(await sweep("--older-than", "1h", "--yes")).toContain("sweep: deleted 3");
    const databases = await databaseNames();
    expect(databases).not.toContain(names.oldDatabase);
    expect(databases).toEqual(expect.arrayContaining([names.recentDatabase, names.ownDatabase, names.embedded]));
    const workspaces = await workspaceNames();
    expect(workspaces).not.toContain(names.oldWorkspace);
    expect(workspaces).toContain(names.ownWorkspace);
    expect(await served(urls.oldObject)).toBe(404);
    expect(await served(urls.recentObject)).toBe(200);
    expect(await served(urls.ownObject)).toBe(200);
  });

  test("a prefix without the test prefix is refused, and nothing is listed", async () => {
    await expect(sweep("--prefix", "keepmine", "--older-than", "0", "--yes")).rejects.toMatchObject({
      stderr: expect.stringContaining(`the sweeper's prefix must start with ${TEST_PREFIX}, got "keepmine"`),
    });
    expect(await databaseNames()).toContain(names.ownDatabase);
  });
});
