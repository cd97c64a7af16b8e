import { emulatorConfig, emulatorSuite } from "./emulator-env";
import { type YamlStack, yamlStack } from "./stack";

/** A plugin a test started itself, as a maintainer starts one under a debugger, serving `port`. */
export interface AttachablePlugin {
  port: number;
  /** Whether the plugin is still running. */
  running(): boolean;
  /** Ends the plugin and whatever it started, nothing else. */
  stop(): void;
}

export interface AttachedLifecycle {
  /** The stack's name, and the project's. */
  stack: string;
  /** What the program's database is named after and its blob object is stored under: letters only. */
  prefix: string;
  /** The test's title. */
  title: string;
  start(): Promise<AttachablePlugin>;
}

/**
 * Declares a file's lifecycle of a plugin the engine attaches to through PULUMI_DEBUG_PROVIDERS
 * (docs/debugging-the-plugin.md) instead of starting one of its own: a YAML program's `up`, a
 * preview that must find nothing to change, and a destroy that must delete it all, against the
 * in-process emulator. One process serves every command: it is still running at the end.
 */
export function attachedLifecycle({ stack, prefix, title, start }: AttachedLifecycle): void {
  const suite = emulatorSuite();
  const database = `${prefix}cache`;
  let plugin: AttachablePlugin | undefined;
  let program: YamlStack;

  beforeAll(async () => {
    plugin = await start();
    program = await yamlStack(
      stack,
      {
        resources: {
          cache: {
            type: "squarecloud:index:Database",
            properties: { name: database, type: "redis", memory: 512, version: "7.4.5" },
          },
          notes: {
            type: "squarecloud:index:BlobObject",
            properties: { prefix, name: "notes", source: { "fn::stringAsset": "attached:".padEnd(1500, "-") } },
          },
        },
      },
      { config: emulatorConfig(suite.emulator), env: { PULUMI_DEBUG_PROVIDERS: `squarecloud:${plugin.port}` } },
    );
    suite.keep(program);
  });

  afterAll(() => plugin?.stop());

  const ours = async () => ({
    databases: (await suite.api.listDatabases()).filter((db) => db.name === database),
    objects: await suite.api.listAllObjects(prefix),
  });

  test(title, async () => {
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
    expect(plugin?.running()).toBe(true);
  });
}
