import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { packageVersion } from "../provider/client/version";

/** The name the engine looks for in a plugin's directory (on Windows with `.exe`, then `.cmd`). */
export const PLUGIN_EXECUTABLE = "pulumi-resource-squarecloud";

/**
 * The compiled `entry` bundled with its dependencies into one file, `outfile`, so it runs wherever
 * node does without an npm install.
 */
export function bundleMain(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node20",
    outfile,
    logLevel: "warning",
    define: { SQUARECLOUD_BUNDLED_VERSION: JSON.stringify(packageVersion()) },
  });
}

/**
 * A plugin directory that runs the bundle with the node on PATH: `main.js` beside a launcher.
 * The release archives ship their own Node instead (scripts/build-plugin.ts); this form is what
 * the benchmarks compare against. Returns `dir`.
 */
export function bundlePlugin(entry: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  bundleMain(entry, path.join(dir, "main.js"));
  const launcher = path.join(dir, PLUGIN_EXECUTABLE);
  writeFileSync(launcher, '#!/bin/sh\nexec node "$(dirname "$0")/main.js" "$@"\n');
  chmodSync(launcher, 0o755);
  return dir;
}
