import * as path from "node:path";
import { repoRoot } from "../harness/engine";
import { accountClient, emulatorSuite } from "../harness/emulator-env";
import { installPluginTarball } from "../harness/plugin-tarball";
import { SecretScanner, splitEngineTraces } from "../reliability/secret-scan";
import { type YamlStack, yamlStack } from "../harness/stack";

// The native plugin as a user installs it (from its tarball, not from this repository), two
// explicit providers with keys of different accounts in one program, and no secret in plaintext
// in state or in any output, at the engine's most verbose logging.

const suite = emulatorSuite();
let program: YamlStack;
const secrets = new SecretScanner();
const home = path.join(repoRoot, ".pulumi-e2e", `native-home-${process.pid}`);

function providerOf(account: number) {
  return {
    type: "pulumi:providers:squarecloud",
    properties: {
      apiKey: `\${key${account}}`,
      platformUrl: suite.emulator.platformUrl,
      blobUrl: suite.emulator.blobUrl,
    },
  };
}

function twoAccounts(memory: number) {
  const database = (name: string, provider: string) => ({
    type: "squarecloud:index:Database",
    properties: { name, type: "redis", memory, version: "7.4.5" },
    options: { provider: `\${${provider}}` },
  });
  return {
    config: { key0: { type: "string" }, key1: { type: "string" } },
    resources: {
      alice: providerOf(0),
      bob: providerOf(1),
      aliceCache: database("alicecache", "alice"),
      bobCache: database("bobcache", "bob"),
    },
    outputs: { alicePassword: "${aliceCache.password}", bobUrl: "${bobCache.connectionUrl}" },
  };
}

beforeAll(async () => {
  program = await yamlStack("native-providers", twoAccounts(512), {
    installedPlugin: true,
    env: { PULUMI_HOME: home },
    config: {
      key0: { value: suite.emulator.accounts[0].apiKey, secret: true },
      key1: { value: suite.emulator.accounts[1].apiKey, secret: true },
    },
  });
  suite.keep(program);
  installPluginTarball(home);
  secrets.add("alice's key", suite.emulator.accounts[0].apiKey).add("bob's key", suite.emulator.accounts[1].apiKey);
});

test("each explicit provider creates with its own account's key", async () => {
  const up = await program.stack.up({ logVerbosity: 9, logToStdErr: true });
  expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
  const names = async (account: number) => {
    const client = accountClient(suite.emulator, suite.emulator.accounts[account]);
    return (await client.listDatabases().finally(() => client.close())).map((db) => db.name);
  };
  expect(await names(0)).toContain("alicecache");
  expect(await names(0)).not.toContain("bobcache");
  expect(await names(1)).toContain("bobcache");
  secrets.add("alice's password", up.outputs.alicePassword.value).add("bob's connection URL", up.outputs.bobUrl.value);
  expect(up.outputs.alicePassword.secret).toBe(true);
  // At -v=9 the engine traces every property it marshals; what it prints apart from those traces,
  // the provider's own output and messages included, must hold no secret.
  const { rest } = splitEngineTraces(up.stdout + up.stderr);
  expect(secrets.scan({ state: program.backendText(), output: rest })).toEqual([]);
});

test("a change updates each account's database in place, and destroy removes both", async () => {
  program.setProgram(twoAccounts(1024));
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
  await program.stack.destroy();
  const client = accountClient(suite.emulator, suite.emulator.accounts[1]);
  expect((await client.listDatabases().finally(() => client.close())).map((db) => db.name)).not.toContain("bobcache");
  expect(secrets.scan({ state: program.backendText() })).toEqual([]);
});
