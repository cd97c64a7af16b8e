import { accountClient, emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// A leaked key is replaced: resources created with the old key must stay manageable with the new
// one (same account) once the old one is revoked. `pulumi refresh` and `pulumi destroy` do not
// run the program, so the dynamic provider gets the stack configuration recorded by the last run
// that did: one `pulumi refresh --run-program` (or `pulumi up`) records the new key, and from
// then on plain refresh and destroy use it. Until then the refusal says exactly that.

const suite = emulatorSuite();
const alice = () => suite.emulator.accounts[0];
const DATABASE = { name: "rotated", type: "redis", memory: 512, version: "7.4.5" };

let program: ProgramStack;
let databaseId: string;
let newKey: string;

beforeAll(async () => {
  program = suite.keep(
    await programStack({
      program: "databases",
      config: { ...emulatorConfig(suite.emulator), databases: { value: JSON.stringify({ cache: DATABASE }) } },
    }),
  );
  await program.stack.up();
  databaseId = ((await program.stack.outputs()).databases.value as Record<string, { id: string }>).cache.id;
  newKey = await suite.emulator.admin.rotateApiKey(alice().accountId);
  await program.stack.setConfig("squarecloud:apiKey", { value: newKey, secret: true });
});

test("the old key is revoked: the service refuses it", async () => {
  const old = accountClient(suite.emulator, alice());
  try {
    await expect(old.me()).rejects.toThrow(/ACCESS_DENIED \(HTTP 401/);
  } finally {
    await old.close();
  }
});

test("a plain refresh still uses the recorded key and says how to make the new one reach it", async () => {
  const error = await program.stack.refresh().then(
    () => undefined,
    (err: Error) => String(err),
  );
  expect(error).toMatch(/ACCESS_DENIED \(HTTP 401, GET \/v2\/databases\/\{databaseId\}\)/);
  expect(error).toContain(
    "If it was replaced, set the new one (pulumi config set squarecloud:apiKey --secret) and run pulumi refresh --run-program (or pulumi up) once",
  );
  expect(error).not.toContain(alice().apiKey);
  expect(error).not.toContain(newKey);
});

test("refresh --run-program works with the new key and records it; plain refresh then works too", async () => {
  const refreshed = await program.stack.refresh({ runProgram: true });
  expect(refreshed.summary.result).toBe("succeeded");
  expect((await program.stack.refresh()).summary.result).toBe("succeeded");
  const [database] = (await program.resources()).filter((r) => r.type === "pulumi-nodejs:dynamic/squarecloud:Database");
  expect(database.id).toBe(databaseId);
  await program.stack.preview({ expectNoChanges: true });
});

test("a plain destroy deletes what the old key created, with the new key", async () => {
  await suite.emulator.admin.clearRequests();
  await program.stack.destroy();
  expect(
    (await suite.emulator.admin.requests()).filter((r) => r.method === "DELETE").map((r) => `${r.path} ${r.status}`),
  ).toEqual([`/v2/databases/${databaseId} 200`]);
  const fresh = accountClient(suite.emulator, { ...alice(), apiKey: newKey });
  try {
    expect((await fresh.me()).databases.map((db) => db.id)).not.toContain(databaseId);
  } finally {
    await fresh.close();
  }
});
