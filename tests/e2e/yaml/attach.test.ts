import { spawn } from "node:child_process";
import * as path from "node:path";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { type AttachablePlugin, attachedLifecycle } from "../harness/attached-plugin";
import { nativePluginDir } from "../harness/stack";

// The native plugin started by hand, as a maintainer starts it under a debugger
// (docs/debugging-the-plugin.md): it prints its port, and the engine attaches to it through
// PULUMI_DEBUG_PROVIDERS instead of starting a plugin of its own. One process then serves every
// command: up, a preview that must find nothing to change, and destroy, which must delete it all.

/** The plugin's first line of stdout: its port, as the engine reads it from a plugin it starts. */
async function startPlugin(): Promise<AttachablePlugin> {
  const launcher = path.join(await nativePluginDir(), "pulumi-resource-squarecloud");
  // A group of its own, so the test ends the plugin and the Node it runs, and nothing else.
  const started = spawn(launcher, [], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: started.stdout as NodeJS.ReadableStream });
  const [first] = (await Promise.race([once(lines, "line"), once(started, "exit")])) as [string];
  const port = Number(first);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`the plugin printed ${JSON.stringify(first)}, not a port`);
  return {
    port,
    running: () => started.exitCode === null,
    stop: () => {
      if (started.pid !== undefined && started.exitCode === null) process.kill(-started.pid, "SIGTERM");
    },
  };
}

attachedLifecycle({
  stack: "native-attach",
  prefix: "attach",
  title: "the engine attaches to the plugin started by hand: up, preview with nothing to change, destroy",
  start: startPlugin,
});
