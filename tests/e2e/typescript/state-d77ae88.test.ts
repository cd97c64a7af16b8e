import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, SEED_ACCOUNTS, startEmulator } from "../../../emulator";
import { OBJECT_LIST_CACHE_MS } from "../../../emulator/models/rules";
import type { SquareCloudClient } from "../../../provider/client";
import { accountClient } from "../harness/emulator-env";
import { repoRoot } from "../harness/engine";
import { SecretScanner } from "../reliability/secret-scan";
import { projectStack, type ProgramStack, type StateResource, SECRET_SIG } from "../harness/stack";

// A stack written by the package built from commit d77ae88 (a build of 2026-11-23, before the first
// release, whose package.json already said 0.1.0) must stay manageable by the package as the
// repository holds it now. The fixture (tests/e2e/fixtures/state-d77ae88, made by its make.mjs from
// that build's tarball) keeps that stack's exported state, its config file and the emulator store holding what
// the state names. Here it is imported into a fresh backend and taken through refresh, a preview
// of the same program, an update in place and destroy, with the current package: the stubs
// serialized into the old state load today's provider, and today's SDK reads the program.

const fixtureDir = path.join(repoRoot, "tests", "e2e", "fixtures", "state-d77ae88");
const fixtureFile = (name: string) => readFileSync(path.join(fixtureDir, name), "utf8");
const fixture: { stack: string; passphrase: string; madeAt: string } = JSON.parse(fixtureFile("fixture.json"));
const deployment: Deployment = JSON.parse(fixtureFile("deployment.json"));

/** Every resource of the fixture's state: the stack, the BlobFolder component and 11 dynamic resources. */
const RESOURCES = 13;
/** Where a secret sits in `pulumi stack export` (encrypted) and `--show-secrets` (plaintext, JSON-encoded). */

interface Deployment {
  version: number;
  deployment: { resources?: StateResource[] };
}

let emulator: RunningEmulator;
let api: SquareCloudClient;
let program: ProgramStack;
/** Every secret seen in the stack's state so far, decrypted: none may show in plaintext anywhere. */
const secrets = new SecretScanner();
/** What the account held before the import: after destroy it holds that minus what the state made. */
let heldBefore: AccountHoldings;

jest.setTimeout(180_000);

beforeAll(async () => {
  program = await projectStack(path.join(fixtureDir, "project"), {
    stackName: fixture.stack,
    env: { PULUMI_CONFIG_PASSPHRASE: fixture.passphrase },
  });
  const dataDir = path.join(program.workDir, ".emulator");
  mkdirSync(dataDir);
  copyFileSync(path.join(fixtureDir, "emulator-state.json"), path.join(dataDir, "state.json"));
  emulator = await startEmulator({ dataDir, admin: true });
  // The store's times are those of the day the fixture was made: on that day's clock, the object
  // that expires in 30 days is still there, whenever this runs.
  await emulator.admin.setClock(fixture.madeAt);
  api = accountClient(emulator);
  heldBefore = await accountHoldings();

  await program.stack.setAllConfig({
    "squarecloud:platformUrl": { value: emulator.platformUrl },
    "squarecloud:blobUrl": { value: emulator.blobUrl },
  });
  await program.stack.importStack(onThisEmulator(deployment));
}, 300_000);

afterAll(async () => {
  await program?.dispose().catch(() => undefined);
  await api?.close();
  await emulator?.close();
});

test("the fixture holds every secret only as ciphertext, and the emulator store none but the seeded API key", async () => {
  const fixtureSecrets = secretsOf(await program.stack.exportStack());
  // Each kind's secrets are there to be looked for, so the scan below cannot pass by finding none.
  const labels = [
    "cache password",
    "cache certificate",
    "cache connectionUrl",
    "bob inviteCode",
    "website-backup url",
    "website-backup key",
    "default squarecloud:apiKey",
  ];
  expect(fixtureSecrets.map(({ label }) => label)).toEqual(expect.arrayContaining(labels));
  for (const { label, value } of fixtureSecrets) secrets.add(label, value);
  const fixtureTexts = {
    "deployment.json": fixtureFile("deployment.json"),
    "Pulumi.fixture.yaml": fixtureFile(`project/Pulumi.${fixture.stack}.yaml`),
    "index.ts": fixtureFile("project/index.ts"),
  };
  expect(secrets.scan(fixtureTexts)).toEqual([]);
  expect(secrets.scan({ "emulator-state.json": fixtureFile("emulator-state.json") })).toEqual([
    { secret: "default squarecloud:apiKey", source: "emulator-state.json" },
  ]);
  await expectNoPlaintextSecret();
});

test("refresh reads every resource of the d77ae88 state through its serialized provider; only the workspace's members and the database's creation time move", async () => {
  const imported = await program.stack.exportStack();
  await emulator.admin.clearRequests();
  const refresh = await program.stack.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ same: RESOURCES });
  // The workspace recorded its members as of its creation, before its two members joined (the
  // same up): the refresh reads them, as that build would have. The database gains createdAt and
  // each linked application `language` beside `lang`, outputs that build did not have. Nothing
  // else moves: today's provider reads every field of the d77ae88 state as it is.
  const refreshed: Deployment = await program.stack.exportStack();
  expect(changedFields(imported, refreshed)).toEqual([
    "cache outputs.createdAt",
    "team outputs.linkedApplications",
    "team outputs.members",
  ]);
  const team = refreshed.deployment.resources?.find((resource) => resource.urn.endsWith("::team"));
  const { alice, bob, dave } = SEED_ACCOUNTS;
  expect(
    (team?.outputs?.members as { id: string; group: string }[] | undefined)?.map(({ id, group }) => [id, group]),
  ).toEqual([
    [alice.accountId, "owner"],
    [bob.accountId, "maintain"],
    [dave.accountId, "view"],
  ]);
  expect(await mutations()).toEqual([]);
  await expectNoPlaintextSecret();
});

test("the same program, run with today's package, previews with no changes and no request that changes anything", async () => {
  await emulator.admin.clearRequests();
  const preview = await program.stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: RESOURCES });
  expect(await mutations()).toEqual([]);
});

test("up changes the database's memory and a member's group in place; the password stays the same secret", async () => {
  const { cacheId, teamId, cachePassword } = await program.stack.outputs();
  await program.stack.setAllConfig({ cacheMemory: { value: "1024" }, bobGroup: { value: "admin" } });
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ update: 2, same: RESOURCES - 2 });

  expect(await api.getDatabase(cacheId.value)).toMatchObject({ name: "compatcache", ram: 1024 });
  const bob = (await api.getWorkspace(teamId.value)).members.find(
    (member) => member.id === SEED_ACCOUNTS.bob.accountId,
  );
  expect(bob?.group).toBe("admin");
  expect(up.outputs.memberGroups.value).toEqual({ bob: "admin", dave: "view" });
  expect(up.outputs.cachePassword).toEqual({ value: cachePassword.value, secret: true });
  const cache = (await program.resources()).find((resource) => resource.urn.endsWith("::cache"));
  expect(cache?.outputs?.password).toMatchObject({ [SECRET_SIG]: expect.any(String), ciphertext: expect.any(String) });
  await expectNoPlaintextSecret();
});

test("destroy removes everything the stack made from the emulator, and leaves the rest of the account as it was", async () => {
  const destroy = await program.stack.destroy();
  expect(destroy.summary.resourceChanges).toEqual({ delete: RESOURCES });
  const made = new Set(deployment.deployment.resources?.flatMap((resource) => (resource.id ? [resource.id] : [])));
  const without = (ids: string[]) => ids.filter((id) => !made.has(id));
  // Past the blob listing's cache, which still holds the listing read before the import.
  await emulator.admin.advanceClock(OBJECT_LIST_CACHE_MS + 1_000);
  expect(await accountHoldings()).toEqual({
    databases: without(heldBefore.databases),
    workspaces: without(heldBefore.workspaces),
    objects: without(heldBefore.objects),
  });
  await expectNoPlaintextSecret();
});

interface AccountHoldings {
  databases: string[];
  workspaces: string[];
  objects: string[];
}

/** The ids of what the main account holds on the emulator, sorted. */
async function accountHoldings(): Promise<AccountHoldings> {
  const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();
  return {
    databases: ids(await api.listDatabases()),
    workspaces: ids(await api.listWorkspaces()),
    objects: ids(await api.listAllObjects()),
  };
}

/**
 * The fixture's state with the emulator URLs of the day it was made replaced by this emulator's.
 * A plain refresh and destroy use the provider configuration recorded in state (see
 * docs/guides/key-rotation.md), and the objects' public URLs name the blob server; on the live service both stay put.
 */
function onThisEmulator(exported: Deployment): Deployment {
  const provider = exported.deployment.resources?.find(
    (resource) => resource.type === "pulumi:providers:pulumi-nodejs",
  );
  let text = JSON.stringify(exported);
  for (const [key, url] of [
    ["squarecloud:platformUrl", emulator.platformUrl],
    ["squarecloud:blobUrl", emulator.blobUrl],
  ]) {
    const recorded = provider?.inputs?.[key];
    if (typeof recorded !== "string") throw new Error(`the fixture's state records no ${key}`);
    // A port is followed by no digit: the URL is not the start of another one.
    text = text.replace(new RegExp(`${recorded.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9])`, "g"), url);
  }
  return JSON.parse(text);
}

/** `<resource name> <inputs|outputs>.<field>` (or `<name> id`) of each value that differs between two decrypted exports. */
function changedFields(before: Deployment, after: Deployment): string[] {
  const [was, is] = [fieldsOf(before), fieldsOf(after)];
  return [...new Set([...was.keys(), ...is.keys()])].filter((key) => was.get(key) !== is.get(key)).sort();
}

function fieldsOf(exported: Deployment): Map<string, string> {
  const fields = new Map<string, string>();
  for (const { urn, id, inputs, outputs } of exported.deployment.resources ?? []) {
    const name = urn.split("::").pop();
    fields.set(`${name} id`, JSON.stringify(id));
    for (const [part, values] of Object.entries({ inputs, outputs })) {
      for (const [field, value] of Object.entries(values ?? {}))
        fields.set(`${name} ${part}.${field}`, JSON.stringify(value));
    }
  }
  return fields;
}

/** The secrets of a decrypted export (`--show-secrets`), each labelled by its resource's name and its field. */
function secretsOf(exported: Deployment): { label: string; value: string }[] {
  return (exported.deployment.resources ?? []).flatMap(({ urn, inputs, outputs }) => {
    const name = urn.split("::").pop();
    return Object.entries({ ...inputs, ...outputs }).flatMap(([field, value]) =>
      plaintextsIn(value).map((plaintext) => ({ label: `${name} ${field}`, value: plaintext })),
    );
  });
}

/** The strings held in plaintext by the secrets inside a value of a decrypted export. */
function plaintextsIn(value: unknown): string[] {
  if (value === null || typeof value !== "object") return [];
  const node = value as Record<string, unknown>;
  if (node[SECRET_SIG] !== undefined && typeof node.plaintext === "string")
    return stringsIn(JSON.parse(node.plaintext));
  return Object.values(node).flatMap(plaintextsIn);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return value !== null && typeof value === "object" ? Object.values(value).flatMap(stringsIn) : [];
}

/** Adds the secrets the state holds now to those seen before, then looks for all of them in every file of the backend. */
async function expectNoPlaintextSecret(): Promise<void> {
  for (const { label, value } of secretsOf(await program.stack.exportStack())) secrets.add(label, value);
  expect(secrets.scan({ backend: program.backendText() })).toEqual([]);
}

/** Requests that could have changed something on the emulator. */
async function mutations() {
  return (await emulator.admin.requests()).filter((request) => request.method !== "GET");
}
