import { SEED_APPS, SEED_BLOB_OBJECTS, SEED_DATABASES } from "../../../emulator";
import { kinds } from "../../../provider/kinds";
import { accountClient, beyondKeyCheck, emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { type YamlStack, yamlStack } from "../harness/stack";

// `pulumi import` of what a team already runs, through the native plugin: the engine reads each
// object by its id alone, the plugin answers with the inputs that describe it, and the code the
// engine generates then previews with no changes.

const suite = emulatorSuite();
let program: YamlStack;
const ids: Record<"database" | "workspace" | "member", string> = { database: "", workspace: "", member: "" };

beforeAll(async () => {
  const created = await suite.api.createDatabase({ name: "legacy", type: "redis", memory: 512, version: "7.4.5" });
  const workspace = await suite.api.createWorkspace("legacy_team");
  await suite.api.linkApplication({ workspaceId: workspace.id, appId: SEED_APPS.aliceWebsite });
  const bob = suite.emulator.accounts[1];
  const bobClient = accountClient(suite.emulator, bob);
  const code = await bobClient.getInviteCode().finally(() => bobClient.close());
  await suite.api.addWorkspaceMember({ workspaceId: workspace.id, code, group: "maintain" });
  Object.assign(ids, { database: created.id, workspace: workspace.id, member: `${workspace.id}/${bob.accountId}` });
  program = await yamlStack("native-import", { resources: {} }, { config: emulatorConfig(suite.emulator) });
  suite.keep(program);
});

let generated = "";

test("import brings a database, a workspace with its links and a member into state, with code that describes them", async () => {
  const result = await program.stack.import({
    protect: false,
    resources: [
      { type: "squarecloud:index:Database", name: "legacy", id: ids.database },
      { type: "squarecloud:index:Workspace", name: "team", id: ids.workspace },
      { type: "squarecloud:index:WorkspaceMember", name: "bob", id: ids.member },
    ],
  });
  expect(result.summary.resourceChanges).toMatchObject({ import: 3 });
  generated = result.generatedCode;
  expect(generated).toMatch(/name: legacy\b/);
  expect(generated).toContain(SEED_APPS.aliceWebsite);
  expect(generated).toMatch(/group: maintain/);
  const state = await program.resources();
  const database = state.find((resource) => resource.type === "squarecloud:index:Database");
  // The certificate and the connection URL are read as secrets; the password cannot be read back.
  for (const output of ["certificate", "connectionUrl"])
    expect((database?.outputs?.[output] as { ciphertext?: string } | undefined)?.ciphertext).toEqual(
      expect.any(String),
    );
  expect(database?.outputs?.password).toBeUndefined();
});

test("the generated code previews with no changes", async () => {
  program.setProgramYaml(generated);
  const preview = await program.stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toMatchObject({ same: 4 });
});

test("stating the imported database's version records it in place, never a replacement", async () => {
  program.setProgramYaml(generated.replace(/(\n(\s+)type: redis)/, '$1\n$2version: "7.4.5"'));
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  expect((await suite.api.listDatabases()).filter((db) => db.name === "legacy").map((db) => db.id)).toEqual([
    ids.database,
  ]);
  await program.stack.preview({ expectNoChanges: true });
});

// Kinds whose objects cannot be described by reading them: a blob's content cannot be read back,
// and an operation's id names an event. Each is refused at the import's preview with its
// declaration's reason, and the stack keeps what it had.
const refused: [kind: string, id: string][] = [
  ["BlobObject", SEED_BLOB_OBJECTS.aliceLogo],
  ["AppSnapshot", `${SEED_APPS.aliceWebsite}@2026-11-23T15:40:00.000Z`],
  ["DatabaseRestore", `${SEED_DATABASES.aliceMain}@2026-11-23T15:40:00.000Z`],
  ["AppFileMove", `${SEED_APPS.aliceWebsite}:src/index.js`],
];

/** The state's resources, each field as stored; a secret's ciphertext changes each time the engine saves it. */
async function stateWithoutCiphertexts(): Promise<string> {
  return JSON.stringify(await program.resources()).replace(/"ciphertext":"[^"]*"/g, '"ciphertext":""');
}

test.each(refused)(
  "import of %s is refused with its reason and what to do instead; the state and the service stay as they were",
  async (kind, id) => {
    const note = kinds.find((declared) => declared.name === kind)?.import as { refused: string; instead: string };
    const before = await stateWithoutCiphertexts();
    await suite.emulator.admin.clearRequests();
    const failure = await program.stack
      .import({ protect: false, resources: [{ type: `squarecloud:index:${kind}`, name: "refused", id }] })
      .then(
        () => undefined,
        (err: Error) => err,
      );
    expect(failure?.message).toContain(`${kind} ${id} cannot be imported: ${note.refused}. Instead, ${note.instead}.`);
    expect(await stateWithoutCiphertexts()).toEqual(before);
    expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
  },
);
