import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { type PythonStack, pythonStack } from "../harness/stack";

// `pulumi import` of a database into a Python program through the native plugin: the engine reads
// it by its id alone, the plugin answers with the inputs that describe it, the language host
// writes them as Python, and that code then previews with no changes.

const suite = emulatorSuite();
let program: PythonStack;
let id = "";
let generated = "";

beforeAll(async () => {
  id = (await suite.api.createDatabase({ name: "legacy", type: "redis", memory: 512, version: "7.4.5" })).id;
  program = await pythonStack("python-import", "import pulumi\n", { config: emulatorConfig(suite.emulator) });
  suite.keep(program);
});

test("import brings the database into state, its secrets sealed, with Python code that describes it", async () => {
  const result = await program.stack.import({
    protect: false,
    resources: [{ type: "squarecloud:index:Database", name: "legacy", id }],
  });
  expect(result.summary.resourceChanges).toMatchObject({ import: 1 });
  generated = result.generatedCode;
  expect(generated).toMatch(/^import pulumi_squarecloud as squarecloud$/m);
  expect(generated).toMatch(/squarecloud\.Database\("legacy",/);
  expect(generated).toMatch(/name="legacy"/);
  expect(generated).toMatch(/memory=512/);
  const database = (await program.resources()).find((resource) => resource.type === "squarecloud:index:Database");
  for (const output of ["certificate", "connectionUrl"])
    expect((database?.outputs?.[output] as { ciphertext?: string } | undefined)?.ciphertext).toEqual(
      expect.any(String),
    );
});

test("the generated code previews with no changes", async () => {
  program.setProgram(generated);
  const preview = await program.stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toMatchObject({ same: 2 });
});
