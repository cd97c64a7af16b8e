import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { packageVersion } from "../provider/client/version";

/** The name the engine looks for in a plugin's directory. */
export const PLUGIN_EXECUTABLE = "pulumi-resource-squarecloud";

/**
 * A plugin directory as the release ships it: the compiled `entry` bundled with its dependencies
 * into `main.js`, so it runs wherever node does without an npm install, beside the executable
 * launcher that runs it. Returns `dir`.
 */
export function bundlePlugin(entry: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node20",
    outfile: path.join(dir, "main.js"),
    logLevel: "warning",
    define: { SQUARECLOUD_BUNDLED_VERSION: JSON.stringify(packageVersion()) },
  });
  const launcher = path.join(dir, PLUGIN_EXECUTABLE);
  writeFileSync(launcher, '#!/bin/sh\nexec node "$(dirname "$0")/main.js" "$@"\n');
  chmodSync(launcher, 0o755);
  return dir;
}
