import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import type { EmulatorData } from "../../../emulator/state";
import { STATE_FILE } from "../../../emulator/store/file-store";
import { accountClient, emulatorConfig } from "../harness/emulator-env";
import { type YamlStack, yamlStack } from "../harness/stack";

// The service holds what its spec refuses at create: the official SDK's own tests make a database
// "sdk-test-db" of 256 MB and a workspace "sdk-test-ws". The emulator's API refuses to make them,
// as the spec says, so they are written into its saved state and read back at its restart. Through
// the real engine and the native plugin, `pulumi import` brings them in without a check failure,
// the code it writes previews with no changes, a refresh finds nothing to change, and a resize to
// a size the spec refuses is still refused at preview.

jest.setTimeout(600_000);

const dataDir = mkdtempSync(path.join(tmpdir(), "sq-existing-"));
let emulator: RunningEmulator;
let program: YamlStack;
const ids = { database: "", workspace: "" };

beforeAll(async () => {
  const maker = await startEmulator({ dataDir });
  const api = accountClient(maker);
  try {
    ids.database = (await api.createDatabase({ name: "legacy", type: "redis", memory: 512, version: "7.4.5" })).id;
    ids.workspace = (await api.createWorkspace("legacy_team")).id;
  } finally {
    await api.close();
    await maker.close();
  }
  const statePath = path.join(dataDir, STATE_FILE);
  const state = JSON.parse(readFileSync(statePath, "utf8")) as EmulatorData;
  Object.assign(state.databases.find((db) => db.id === ids.database) ?? {}, { name: "sdk-test-db", memory: 256 });
  Object.assign(state.workspaces.find((ws) => ws.id === ids.workspace) ?? {}, { name: "sdk-test-ws" });
  writeFileSync(statePath, JSON.stringify(state));
  emulator = await startEmulator({ dataDir });
  program = await yamlStack("existing-import", { resources: {} }, { config: emulatorConfig(emulator) });
});

afterAll(async () => {
  await program?.dispose().catch(() => undefined);
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let generated = "";

test("import brings them in as they are, with no check failure", async () => {
  const result = await program.stack.import({
    protect: false,
    resources: [
      { type: "squarecloud:index:Database", name: "sdkdb", id: ids.database },
      { type: "squarecloud:index:Workspace", name: "sdkws", id: ids.workspace },
    ],
  });
  expect(result.summary.resourceChanges).toMatchObject({ import: 2 });
  expect(result.stdout).not.toContain("failed to validate");
  generated = result.generatedCode;
  expect(generated).toMatch(/name: sdk-test-db\b/);
  expect(generated).toMatch(/memory: 256\b/);
  expect(generated).toMatch(/name: sdk-test-ws\b/);
});

test("the generated code previews with no changes, and a refresh finds none", async () => {
  program.setProgramYaml(generated);
  await program.stack.preview({ expectNoChanges: true });
  const refresh = await program.stack.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
});

test("a resize to a size the spec refuses is refused at preview, naming the rule and the value", async () => {
  program.setProgramYaml(generated.replace(/memory: 256\b/, "memory: 384"));
  const failure = await program.stack.preview().then(
    () => undefined,
    (err: Error) => err,
  );
  expect(failure?.message).toContain("must be at least 512 MB for a redis database, got 384");
  program.setProgramYaml(generated);
});
