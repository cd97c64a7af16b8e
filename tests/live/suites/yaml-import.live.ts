import { type YamlStack, yamlStack } from "../../e2e/harness/stack";
import { liveSuite } from "../live-suite";

// `pulumi import` of a database made outside Pulumi, into a Pulumi YAML program (the native
// plugin): the engine reads it by its id alone, the code it generates previews with no changes,
// and destroy deletes it.

const suite = liveSuite();
const name = `${suite.runPrefix}imp`;
let program: YamlStack;
let databaseId: string;
let generated = "";

beforeAll(async () => {
  databaseId = (await suite.api.createDatabase({ name, type: "redis", memory: 512, version: "7.4.5" })).id;
  program = suite.keep(await yamlStack("live-yaml-import", { resources: {} }, { config: suite.config() })) as YamlStack;
});

afterAll(async () => {
  // Gone after the destroy; here only when a test failed before it.
  if (databaseId) await suite.api.deleteDatabase(databaseId).catch(() => undefined);
});

test("import brings the database into state, its certificate and connection URL as secrets", async () => {
  const result = await program.stack.import({
    protect: false,
    resources: [{ type: "squarecloud:index:Database", name: "legacy", id: databaseId }],
  });
  expect(result.summary.resourceChanges).toMatchObject({ import: 1 });
  generated = result.generatedCode;
  expect(generated).toContain(`name: ${name}`);
  const database = (await program.resources()).find((resource) => resource.type === "squarecloud:index:Database");
  for (const output of ["certificate", "connectionUrl"])
    expect((database?.outputs?.[output] as { ciphertext?: string } | undefined)?.ciphertext).toEqual(
      expect.any(String),
    );
});

test("the generated code previews with no changes", async () => {
  program.setProgramYaml(generated);
  const preview = await program.stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toMatchObject({ same: 2 });
});

test("destroy deletes the imported database", async () => {
  await program.stack.destroy();
  expect((await suite.api.listDatabases()).filter((db) => db.name === name)).toEqual([]);
  databaseId = "";
});
