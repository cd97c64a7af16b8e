import { SEED_APPS } from "../../../emulator";
import { accountClient, emulatorConfig, emulatorSuite } from "../emulator-env";
import { YamlStack, yamlStack } from "../stack";

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
  for (const output of ["certificate", "connectionUrl"]) expect((database?.outputs?.[output] as { ciphertext?: string }).ciphertext).toEqual(expect.any(String));
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
  expect((await suite.api.listDatabases()).filter((db) => db.name === "legacy").map((db) => db.id)).toEqual([ids.database]);
  await program.stack.preview({ expectNoChanges: true });
});
