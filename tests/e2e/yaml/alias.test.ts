import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { type YamlStack, yamlStack } from "../harness/stack";

// A stack moves from the dynamic provider to the native plugin: the same database, declared with
// the native type and an alias to its dynamic type, is unchanged, and its secrets stay in state.

const suite = emulatorSuite();
let program: YamlStack;
const DYNAMIC_TYPE = "pulumi-nodejs:dynamic/squarecloud:Database";
const cache = { name: "movedcache", type: "redis", memory: 512, version: "7.4.5" };

beforeAll(async () => {
  program = await yamlStack("native-alias", { resources: {} }, { config: emulatorConfig(suite.emulator) });
  suite.keep(program);
  // The stack's first program: TypeScript with the dynamic provider, as 0.1.0 users have it.
  writeFileSync(path.join(program.workDir, "Pulumi.yaml"), "name: native-alias\nruntime: nodejs\n");
  writeFileSync(
    path.join(program.workDir, "package.json"),
    JSON.stringify({ name: "native-alias", private: true, main: "index.js" }),
  );
  writeFileSync(
    path.join(program.workDir, "index.js"),
    `const sq = require("pulumi-squarecloud");\nconst cache = new sq.Database("cache", ${JSON.stringify(cache)});\nexports.password = cache.password;\n`,
  );
});

test("the native type with an alias to the dynamic one takes the database over unchanged, secrets kept", async () => {
  const dynamic = await program.stack.up();
  expect(dynamic.summary.resourceChanges).toMatchObject({ create: 2 });
  const before = (await program.resources()).find((resource) => resource.type === DYNAMIC_TYPE);
  expect(before?.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });

  const urn = before?.urn as string;
  program.setProgram({
    resources: { cache: { type: "squarecloud:index:Database", properties: cache, options: { aliases: [urn] } } },
    outputs: { password: "${cache.password}" },
  });
  const preview = await program.stack.preview();
  expect(preview.changeSummary).toEqual({ same: 2 });
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ same: 2 });
  const after = (await program.resources()).find((resource) => resource.type === "squarecloud:index:Database");
  expect(after?.id).toBe(before?.id);
  // The same password, still a secret (encrypted anew, so compared by value).
  expect(up.outputs.password).toEqual({ value: dynamic.outputs.password.value, secret: true });
  expect(after?.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
  expect(after?.outputs?.connectionUrl).toMatchObject({ ciphertext: expect.any(String) });
});

test("refresh and destroy then run through the native plugin", async () => {
  const refresh = await program.stack.refresh();
  expect(refresh.summary.resourceChanges).toMatchObject({ same: 2 });
  const after = (await program.resources()).find((resource) => resource.type === "squarecloud:index:Database");
  expect(after?.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
  await program.stack.destroy();
  expect((await suite.api.listDatabases()).map((db) => db.name)).not.toContain("movedcache");
});
