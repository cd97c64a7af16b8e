import { DatabaseSummary } from "../../../provider/client/payloads/platform";
import { beyondKeyCheck, emulatorConfig, emulatorSuite } from "../emulator-env";
import { SecretScanner } from "../reliability/secret-scan";
import { YamlStack, yamlStack } from "../stack";

// A Database declared in a Pulumi YAML program, served by the native plugin: the lifecycle the
// TypeScript SDK's tests prove for the dynamic provider, through the same handlers.

const suite = emulatorSuite();
let program: YamlStack;
const secrets = new SecretScanner();

function databaseProgram(properties: Record<string, unknown>) {
  return {
    resources: { cache: { type: "squarecloud:index:Database", properties: { name: "nativecache", type: "redis", memory: 512, version: "7.4.5", ...properties } } },
    outputs: { url: "${cache.connectionUrl}", password: "${cache.password}", certificate: "${cache.certificate}", owner: "${cache.owner}" },
  };
}

async function listed(): Promise<DatabaseSummary[]> {
  return (await suite.api.listDatabases()).filter((db) => db.name.startsWith("nativecache"));
}

beforeAll(async () => {
  program = await yamlStack("native-database", databaseProgram({}), { config: emulatorConfig(suite.emulator) });
  suite.keep(program);
});

test("up creates the database; password, certificate and URL are secrets, encrypted in state", async () => {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  const [db] = await listed();
  expect(db).toMatchObject({ name: "nativecache", memory: 512 });
  expect(up.outputs.owner).toEqual({ value: suite.emulator.accounts[0].accountId, secret: false });
  const state = (await program.resources()).find((resource) => resource.type === "squarecloud:index:Database");
  for (const output of ["password", "certificate", "connectionUrl"]) {
    expect({ output, sealed: (state?.outputs?.[output] as Record<string, unknown>)?.ciphertext !== undefined }).toEqual({ output, sealed: true });
  }
  for (const output of ["url", "password", "certificate"]) {
    expect({ output, secret: up.outputs[output].secret, given: typeof up.outputs[output].value }).toEqual({ output, secret: true, given: "string" });
    secrets.add(output, up.outputs[output].value);
  }
  expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
});

test("a new memory updates it in place", async () => {
  const [before] = await listed();
  program.setProgram(databaseProgram({ memory: 1024 }));
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
  const [after] = await listed();
  expect({ id: after.id, memory: after.memory }).toEqual({ id: before.id, memory: 1024 });
});

test("refresh reads a rename made outside Pulumi, and the next up brings the name back", async () => {
  const [db] = await listed();
  await suite.api.updateDatabase(db.id, { name: "nativecacheX" });
  await program.stack.refresh();
  const state = (await program.resources()).find((resource) => resource.type === "squarecloud:index:Database");
  expect(state?.outputs?.name).toBe("nativecacheX");
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
  expect((await listed()).map((found) => found.name)).toEqual(["nativecache"]);
});

test("bad input is refused at preview with the dynamic provider's message and no request", async () => {
  program.setProgram(databaseProgram({ memory: 100 }));
  await suite.emulator.admin.clearRequests();
  await expect(program.stack.preview()).rejects.toThrow(/property memory value \{100\} has a problem: must be at least 512 MB for a redis database, got 100/);
  expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
});

test("a new version replaces it: the new database first, then the old one is deleted", async () => {
  const [before] = await listed();
  program.setProgram(databaseProgram({ memory: 1024, version: "7.4.6" }));
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
  const after = await listed();
  expect(after).toHaveLength(1);
  expect(after[0].id).not.toBe(before.id);
  expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
});

test("destroy deletes it", async () => {
  await program.stack.destroy();
  expect(await listed()).toEqual([]);
});
