import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { nativePluginDir, type YamlStack, yamlStack } from "../harness/stack";

// The native plugin started by hand, as a maintainer starts it under a debugger
// (docs/debugging-the-plugin.md): it prints its port, and the engine attaches to it through
// PULUMI_DEBUG_PROVIDERS instead of starting a plugin of its own. One process then serves every
// command: up, a preview that must find nothing to change, and destroy, which must delete it all.

const suite = emulatorSuite();
let plugin: ChildProcess;
let program: YamlStack;

/** The plugin's first line of stdout: its port, as the engine reads it from a plugin it starts. */
async function startPlugin(): Promise<{ process: ChildProcess; port: number }> {
  const launcher = path.join(await nativePluginDir(), "pulumi-resource-squarecloud");
  // A group of its own, so the test ends the plugin and the Node it runs, and nothing else.
  const started = spawn(launcher, [], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: started.stdout as NodeJS.ReadableStream });
  const [first] = (await Promise.race([once(lines, "line"), once(started, "exit")])) as [string];
  const port = Number(first);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`the plugin printed ${JSON.stringify(first)}, not a port`);
  return { process: started, port };
}

beforeAll(async () => {
  const { process: started, port } = await startPlugin();
  plugin = started;
  program = await yamlStack(
    "native-attach",
    {
      resources: {
        cache: {
          type: "squarecloud:index:Database",
          properties: { name: "attachcache", type: "redis", memory: 512, version: "7.4.5" },
        },
        notes: {
          type: "squarecloud:index:BlobObject",
          properties: { prefix: "attach", name: "notes", source: { "fn::stringAsset": "attached:".padEnd(1500, "-") } },
        },
      },
    },
    { config: emulatorConfig(suite.emulator), env: { PULUMI_DEBUG_PROVIDERS: `squarecloud:${port}` } },
  );
  suite.keep(program);
});

afterAll(() => {
  if (plugin?.pid !== undefined && plugin.exitCode === null) process.kill(-plugin.pid, "SIGTERM");
});

const ours = async () => ({
  databases: (await suite.api.listDatabases()).filter((db) => db.name === "attachcache"),
  objects: await suite.api.listAllObjects("attach"),
});

test("the engine attaches to the plugin started by hand: up, preview with nothing to change, destroy", async () => {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
  const created = await ours();
  expect(created.databases).toHaveLength(1);
  expect(created.objects).toHaveLength(1);

  const preview = await program.stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 3 });

  const destroy = await program.stack.destroy();
  expect(destroy.summary.resourceChanges).toMatchObject({ delete: 3 });
  await suite.emulator.admin.advanceClock(31_000);
  expect(await ours()).toEqual({ databases: [], objects: [] });
  // Every command was served by the plugin the test started: it is still running.
  expect(plugin.exitCode).toBeNull();
});
