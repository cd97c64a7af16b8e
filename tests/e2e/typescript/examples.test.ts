import {
  cpSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { SEED_APPS, SEED_DATABASES } from "../../../emulator";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { repoRoot } from "../harness/engine";
import { outsideDir, packInto, vendorTarball } from "../harness/outside-project";
import { outsideExampleStack, type ProgramStack, type ProgramStackOptions, userProjectStack } from "../harness/stack";

// Every example as README says to copy it and users run it: into a directory of its own outside
// this repository with the tarball in vendor/, where its package.json names it, then `npm install`
// and the real engine. One tarball serves them all. The first example is installed with npm; an
// example whose package.json asks for the same packages takes a hard-linked copy of that install
// (what npm would install for it, without its seconds of CPU), one that asks for others its own.

// Its limit for a test (only a hung one stops there) covers the wait for the example's install.
const suite = emulatorSuite();
let tarballDir: string;

/** In the order of the tests: each install starts when the one before it ends. */
const EXAMPLES = [
  "quickstart",
  "protected-database",
  "team-onboarding",
  "static-assets",
  "showcase",
  "backup-and-restore",
  "gitops",
];
const installs = new Map<string, Promise<ProgramStack>>();

beforeAll(() => {
  tarballDir = outsideDir("tarball");
  const tarball = packInto(tarballDir);
  // What the gitops workflow sets from repository secrets; no squarecloud:* stack config at all.
  const env: Record<string, Record<string, string>> = {
    gitops: {
      SQUARECLOUD_API_KEY: suite.emulator.accounts[0].apiKey,
      SQUARECLOUD_PLATFORM_URL: suite.emulator.platformUrl,
      SQUARECLOUD_BLOB_URL: suite.emulator.blobUrl,
    },
  };
  const first = outsideExampleStack(EXAMPLES[0], tarball, { env: env[EXAMPLES[0]] });
  let previous: Promise<unknown> = Promise.resolve();
  for (const example of EXAMPLES) {
    const install = previous
      .catch(() => undefined)
      .then(async () =>
        example === EXAMPLES[0] ? first : exampleWithInstallOf(await first, example, tarball, { env: env[example] }),
      )
      .then((stack) => suite.keep(stack));
    // Awaited by the example's test; until then a failure must not count as unhandled.
    install.catch(() => undefined);
    installs.set(example, install);
    previous = install;
  }
});
afterAll(async () => {
  await Promise.allSettled(installs.values());
  rmSync(tarballDir, { recursive: true, force: true });
});

/** The packages an example of examples/ asks npm for. */
function wantedPackages(example: string): string {
  const { dependencies, devDependencies } = JSON.parse(
    readFileSync(path.join(repoRoot, "examples", example, "package.json"), "utf8"),
  );
  return JSON.stringify({ dependencies, devDependencies });
}

/**
 * The example copied outside this repository with the tarball in vendor/ and, when it asks for the
 * same packages as the installed one, a hard-linked copy of its node_modules; else its own install.
 */
function exampleWithInstallOf(
  installed: ProgramStack,
  example: string,
  tarball: string,
  options: Pick<ProgramStackOptions, "env">,
): Promise<ProgramStack> {
  if (wantedPackages(example) !== wantedPackages(EXAMPLES[0])) return outsideExampleStack(example, tarball, options);
  const workDir = outsideDir(example);
  cpSync(path.join(repoRoot, "examples", example), workDir, { recursive: true });
  vendorTarball(tarball, workDir);
  linkTree(path.join(installed.workDir, "node_modules"), path.join(workDir, "node_modules"));
  return userProjectStack(workDir, options);
}

/** A copy of the tree `from` whose files are hard links to its own (GNU `cp -al`, on any system). */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else linkSync(source, target);
  }
}

/**
 * The example's first `up`, type-checked by ts-node as users run it. Its later runs skip the check
 * (`PULUMI_NODEJS_TRANSPILE_ONLY`): the program is the same, and each check costs seconds of CPU.
 */
async function firstUp(example: ProgramStack) {
  const up = await example.stack.up();
  example.stack.workspace.envVars.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
  return up;
}

/**
 * The example, installed. Its tests fetch invite codes only after this: a code lives 5 minutes,
 * which an install can outlast on a busy machine.
 */
async function installedExample(example: string): Promise<ProgramStack> {
  const stack = await installs.get(example);
  if (!stack) throw new Error(`${example} is not in EXAMPLES`);
  return stack;
}

test("quickstart declares the four resources and reads the account, then tears down", async () => {
  const [, bob] = suite.emulator.accounts;
  const example = await installedExample("quickstart");
  const codes = await inviteCodeConfig(suite.emulator, { teammateInviteCode: bob });
  await example.stack.setAllConfig({
    ...emulatorConfig(suite.emulator),
    teammateId: { value: bob.accountId },
    ...codes,
  });
  const up = await firstUp(example);
  // The stack, the database, the workspace, its member and the object.
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  expect(up.outputs.cacheUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
  expect(await suite.api.getDatabase(up.outputs.cacheId.value)).toMatchObject({
    name: "cache",
    type: "redis",
    ram: 512,
  });
  const { members } = await suite.api.getWorkspace(up.outputs.workspaceId.value);
  expect(members.map((m) => [m.id, m.group])).toContainEqual([bob.accountId, "view"]);
  expect(await (await fetch(up.outputs.welcomeUrl.value)).text()).toBe(
    readFileSync(path.join(example.workDir, "welcome.md"), "utf8"),
  );
  expect(up.outputs.plan.value).toBe((await suite.api.me()).user.plan.name);
  expect(example.backendText()).not.toContain(codes.teammateInviteCode.value);

  expect((await example.stack.preview()).changeSummary).toEqual({ same: 5 });
  expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 5 });
  await expect(suite.api.getDatabase(up.outputs.cacheId.value)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
  await expect(suite.api.getWorkspace(up.outputs.workspaceId.value)).rejects.toMatchObject({
    code: "WORKSPACE_NOT_FOUND",
  });
  expect((await fetch(up.outputs.welcomeUrl.value)).status).toBe(404);
});

test("protected-database refuses to be destroyed until protect is lifted, then keeps the database", async () => {
  const example = await installedExample("protected-database");
  await example.stack.setAllConfig(emulatorConfig(suite.emulator));
  const up = await firstUp(example);
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  const { ordersId } = up.outputs;

  const destroy = await example.stack.destroy().then(
    () => undefined,
    (err: Error) => err,
  );
  expect(String(destroy?.message)).toMatch(/protect/);
  expect(await suite.api.getDatabase(ordersId.value)).toMatchObject({ name: "orders", ram: 2048 });

  // What the example's comment says to do (`pulumi state unprotect`), through the state itself.
  const state = await example.stack.exportStack();
  for (const resource of state.deployment.resources) delete resource.protect;
  await example.stack.importStack(state);
  expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 2 });
  // retainOnDelete: Pulumi forgot it, the database runs on.
  expect(await suite.api.getDatabase(ordersId.value)).toMatchObject({ name: "orders" });
});

test("team-onboarding turns the roster into a workspace and its members; a removed line removes the person", async () => {
  const { accounts } = suite.emulator;
  const invitees = { bobInviteCode: accounts[1], carolInviteCode: accounts[2], daveInviteCode: accounts[3] };
  const example = await installedExample("team-onboarding");
  const config = { ...emulatorConfig(suite.emulator), ...(await inviteCodeConfig(suite.emulator, invitees)) };
  await example.stack.setAllConfig(config);
  const up = await firstUp(example);
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const workspaceId = up.outputs.workspaceId.value;
  const groups = async () =>
    Object.fromEntries((await suite.api.getWorkspace(workspaceId)).members.map((m) => [m.id, m.group]));
  expect(await groups()).toEqual({
    [accounts[0].accountId]: "owner",
    [accounts[1].accountId]: "admin",
    [accounts[2].accountId]: "maintain",
    [accounts[3].accountId]: "view",
  });
  for (const code of Object.values(config)) if (code.secret) expect(example.backendText()).not.toContain(code.value);

  // The spent codes may stay in config: nothing to do.
  expect((await example.stack.preview()).changeSummary).toEqual({ same: 5 });

  const rosterPath = path.join(example.workDir, "roster.json");
  const roster = JSON.parse(readFileSync(rosterPath, "utf8"));
  roster.members = roster.members.filter((line: { userId: string }) => line.userId !== accounts[3].accountId);
  writeFileSync(rosterPath, JSON.stringify(roster));
  expect((await example.stack.up()).summary.resourceChanges).toEqual({ same: 4, delete: 1 });
  expect(await groups()).not.toHaveProperty(accounts[3].accountId);

  expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 4 });
  await expect(suite.api.getWorkspace(workspaceId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
});

test("static-assets publishes its public/ folder; every URL serves the file's bytes", async () => {
  const example = await installedExample("static-assets");
  await example.stack.setAllConfig(emulatorConfig(suite.emulator));
  const up = await firstUp(example);
  // The stack, the folder and its three files.
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const urls = up.outputs.urls.value as Record<string, string>;
  expect(Object.keys(urls).sort()).toEqual(["css/site.css", "data/menu.json", "index.html"]);
  for (const [relative, url] of Object.entries(urls)) {
    const response = await fetch(url);
    expect(await response.text()).toBe(readFileSync(path.join(example.workDir, "public", relative), "utf8"));
  }
  expect(await fetch(urls["css/site.css"]).then((r) => r.headers.get("content-type"))).toBe("text/css");

  expect((await example.stack.preview()).changeSummary).toEqual({ same: 5 });
  expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 5 });
  expect((await fetch(urls["index.html"])).status).toBe(404);
});

test("showcase makes the whole package work together: databases, a team workspace, assets, a snapshot, account reads", async () => {
  const { accounts } = suite.emulator;
  const [alice, bob, dave] = [accounts[0], accounts[1], accounts[3]];
  const example = await installedExample("showcase");
  const codes = await inviteCodeConfig(suite.emulator, { bobInviteCode: bob, daveInviteCode: dave });
  await example.stack.setAllConfig({ ...emulatorConfig(suite.emulator), ...codes });
  const websiteSnapshots = async () =>
    (await suite.api.listSnapshots("applications")).filter((s) => s.name === SEED_APPS.aliceWebsite).length;
  const snapshotsBefore = await websiteSnapshots();

  const up = await firstUp(example);
  // The stack, two databases, the workspace and its two members, the folder and its three files, the snapshot.
  expect(up.summary.resourceChanges).toEqual({ create: 11 });
  const out = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value]));

  expect(await suite.api.getDatabase(out.databases.sessions.id)).toMatchObject({
    name: "sessions",
    type: "redis",
    ram: 512,
  });
  expect(await suite.api.getDatabase(out.databases.catalog.id)).toMatchObject({
    name: "catalog",
    type: "mongo",
    ram: 1024,
  });
  for (const secret of ["sessionsUrl", "catalogUrl", "catalogCertificate", "snapshotUrl", "snapshotKey"])
    expect(up.outputs[secret].secret).toBe(true);
  expect(out.catalogUrl).toMatch(/^mongodb/);

  const workspace = await suite.api.getWorkspace(out.workspaceId);
  expect(workspace).toMatchObject({ name: "showcase_team" });
  expect(Object.fromEntries(workspace.members.map((m) => [m.id, m.group]))).toEqual({
    [alice.accountId]: "owner",
    [bob.accountId]: "maintain",
    [dave.accountId]: "view",
  });
  expect(workspace.applications.map((app) => app.id)).toEqual([SEED_APPS.aliceWebsite]);
  expect(out.workspaceMembers).toEqual({
    [bob.accountId]: { name: bob.name, group: "maintain" },
    [dave.accountId]: { name: dave.name, group: "view" },
  });
  expect(out.workspaceApps).toEqual([`Alice Website (${SEED_APPS.aliceWebsite})`]);
  for (const code of Object.values(codes)) expect(example.backendText()).not.toContain(code.value);

  const urls = out.assetUrls as Record<string, string>;
  expect(Object.keys(urls).sort()).toEqual(["css/site.css", "data/status.json", "index.html"]);
  for (const [relative, url] of Object.entries(urls)) {
    const served = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(served.equals(readFileSync(path.join(example.workDir, "public", relative)))).toBe(true);
  }

  expect(await websiteSnapshots()).toBe(snapshotsBefore + 1);
  expect(out.snapshotUrl).toMatch(/^https?:\/\//);
  expect(out.accountApps).toContain(`Alice Website (${SEED_APPS.aliceWebsite})`);
  expect(out.websiteTraffic).toMatchObject({
    app: "Alice Website",
    range: "daily",
    visits: expect.any(Number),
    requests: expect.any(Number),
  });
  expect(out.websiteTraffic.visits).toBeGreaterThan(0);
  expect(out.blobStorage.objects).toBeGreaterThan(0);

  // Codes fetched again (as the demo does each run) change nothing once the members joined.
  await example.stack.setAllConfig(
    await inviteCodeConfig(suite.emulator, { bobInviteCode: bob, daveInviteCode: dave }),
  );
  expect((await example.stack.preview()).changeSummary).toEqual({ same: 11 });
  expect(await websiteSnapshots()).toBe(snapshotsBefore + 1);

  expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 11 });
  await expect(suite.api.getDatabase(out.databases.sessions.id)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
  await expect(suite.api.getDatabase(out.databases.catalog.id)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
  await expect(suite.api.getWorkspace(out.workspaceId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  expect((await fetch(urls["index.html"])).status).toBe(404);
});

describe("backup-and-restore snapshots an app, lists a database's backups, and restores only when named and confirmed", () => {
  const RESTORE_ROUTE = "POST /v2/databases/:id/snapshots/restore";
  const SNAPSHOT_ROUTE = "POST /v2/apps/:id/snapshots";
  const databaseId = SEED_DATABASES.aliceCache;
  let example: ProgramStack;
  let backups: { versionId?: string; modified: string }[];
  const routeCount = async (route: string) =>
    (await suite.emulator.admin.requests()).filter((r) => r.route === route).length;

  beforeAll(async () => {
    backups = await suite.api.databaseSnapshots(databaseId);
    example = await installedExample("backup-and-restore");
    await example.stack.setAllConfig({
      ...emulatorConfig(suite.emulator),
      appId: { value: SEED_APPS.aliceApi },
      databaseId: { value: databaseId },
    });
    // Moves the account past the 5 s window of any snapshot an earlier example took.
    await suite.emulator.admin.advanceClock(5_000);
    await suite.emulator.admin.clearRequests();
  });

  test("without restore config: one app snapshot, the listing exported without keys, no restore", async () => {
    const up = await firstUp(example);
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(await routeCount(SNAPSHOT_ROUTE)).toBe(1);
    expect(await routeCount(RESTORE_ROUTE)).toBe(0);
    expect(up.outputs.appBackupUrl.secret).toBe(true);
    expect(up.outputs.databaseSnapshots.value.map((s: { versionId: string }) => s.versionId)).toEqual(
      backups.map((b) => b.versionId),
    );
    expect(up.outputs.latestDatabaseSnapshot.value).toEqual({
      versionId: backups[0].versionId,
      modified: backups[0].modified,
    });
    expect(up.outputs).not.toHaveProperty("restored");
    expect(example.backendText()).not.toMatch(/AWSAccessKeyId=|Signature=/);
  });

  test("a named snapshot without confirm stops the preview, saying what is lost; confirmed, up restores it once", async () => {
    const older = backups[1];
    await example.stack.setConfig("restoreVersionId", { value: older.versionId as string });
    const refused = await example.stack.preview().then(
      () => "",
      (err: Error) => String(err.message),
    );
    expect(refused).toMatch(
      new RegExp(
        `restore.*confirm.*database "${databaseId}".*after ${older.modified} \\(the snapshot's date\\) is lost for good`,
      ),
    );
    expect(await routeCount(RESTORE_ROUTE)).toBe(0);

    await example.stack.setConfig("confirmRestore", { value: "true" });
    const up = await example.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2, create: 1 });
    const restores = (await suite.emulator.admin.requests()).filter((r) => r.route === RESTORE_ROUTE);
    expect(restores.map((r) => [r.path, r.status])).toEqual([[`/v2/databases/${databaseId}/snapshots/restore`, 200]]);
    expect(up.outputs.restored.value).toMatchObject({ versionId: older.versionId, snapshotModified: older.modified });
  });

  test("a later up restores nothing; removing both keys, as the example says, forgets the restore without a request", async () => {
    await suite.emulator.admin.clearRequests();
    expect((await example.stack.up()).summary.resourceChanges).toEqual({ same: 3 });
    expect(await routeCount(RESTORE_ROUTE)).toBe(0);
    expect(await routeCount(SNAPSHOT_ROUTE)).toBe(0);

    await example.stack.removeAllConfig(["restoreVersionId", "confirmRestore"]);
    const forget = await example.stack.up();
    expect(forget.summary.resourceChanges).toEqual({ same: 2, delete: 1 });
    expect(forget.outputs).not.toHaveProperty("restored");
    // The next named snapshot stops at the preview again.
    await example.stack.setConfig("restoreVersionId", { value: backups[0].versionId as string });
    await expect(example.stack.preview()).rejects.toThrow(/must be true to restore/);
    await example.stack.removeConfig("restoreVersionId");

    expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 2 });
    const writes = (await suite.emulator.admin.requests()).filter((r) => r.method !== "GET");
    expect(writes).toEqual([]);
  });
});

test("gitops runs as its workflow runs it, outside this repository from its own package.json and the tarball; an unchanged checkout previews no changes", async () => {
  const [alice] = suite.emulator.accounts;
  const example = await installedExample("gitops");
  const up = await firstUp(example);
  // Compiled by the example's own TypeScript: the 3.8 bundled in @pulumi/pulumi fails on it.
  expect(
    JSON.parse(readFileSync(path.join(example.workDir, "node_modules", "typescript", "package.json"), "utf8")).version,
  ).toMatch(/^5\./);
  // The stack, the database, the folder and its one file.
  expect(up.summary.resourceChanges).toEqual({ create: 4 });
  expect(await suite.api.getDatabase(up.outputs.cacheId.value)).toMatchObject({
    name: "cache",
    type: "redis",
    ram: 512,
  });
  expect(up.outputs.cacheUrl.secret).toBe(true);
  const page = (up.outputs.siteUrls.value as Record<string, string>)["index.html"];
  expect(await (await fetch(page)).text()).toBe(
    readFileSync(path.join(example.workDir, "public", "index.html"), "utf8"),
  );
  expect(example.backendText()).not.toContain(alice.apiKey);

  // Deployed, the same checkout proposes nothing (`pulumi preview --expect-no-changes`)...
  expect((await example.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 4 });
  // ...while a pull request's config change previews as an update, and the flag then fails.
  await example.stack.setConfig("cacheMemory", { value: "1024" });
  expect((await example.stack.preview()).changeSummary).toEqual({ same: 3, update: 1 });
  await expect(example.stack.preview({ expectNoChanges: true })).rejects.toThrow(
    /no changes were expected.*but changes were proposed/,
  );

  expect((await example.stack.destroy()).summary.resourceChanges).toEqual({ delete: 4 });
  await expect(suite.api.getDatabase(up.outputs.cacheId.value)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
  expect((await fetch(page)).status).toBe(404);
});
