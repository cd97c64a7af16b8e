import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { packageVersion } from "../provider/client/version";
import { PLUGIN_BUNDLE } from "../provider/plugin/code-cache";
import { PLUGIN_EXECUTABLE } from "../provider/release-assets";

/** A JavaScript file of an archive's or a plugin directory's, `main.js` the one its launcher runs. */
export interface BundledFile {
  name: string;
  data: Buffer;
}

/**
 * The JavaScript of a plugin's directory, so it runs wherever node does without an npm install:
 * the compiled `entry` bundled with its dependencies into one file, and `main.js`, which runs that
 * bundle from a code cache (provider/plugin/launch.ts).
 */
export function pluginFiles(entry: string): BundledFile[] {
  const bundle = bundled(entry, { SQUARECLOUD_BUNDLED_VERSION: JSON.stringify(packageVersion()) });
  const sha256 = createHash("sha256").update(bundle).digest("hex");
  const launch = path.join(repoRoot, "dist", "provider", "plugin", "launch.js");
  return [
    { name: "main.js", data: bundled(launch, { SQUARECLOUD_PLUGIN_BUNDLE_SHA256: JSON.stringify(sha256) }) },
    { name: PLUGIN_BUNDLE, data: bundle },
  ];
}

/** The compiled `entry` bundled with its dependencies into one `main.js`. */
export function mainBundle(entry: string): BundledFile[] {
  return [{ name: "main.js", data: bundled(entry, { SQUARECLOUD_BUNDLED_VERSION: JSON.stringify(packageVersion()) }) }];
}

const repoRoot = path.join(__dirname, "..", "..");

function bundled(entry: string, define: Record<string, string>): Buffer {
  const { outputFiles } = buildSync({
    // Code in ASCII; what asciiOnly then leaves is in comments.
    charset: "ascii",
    // The paths the bundle names its modules by are relative to the repository, wherever the build runs.
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "warning",
    define,
  });
  return Buffer.from(asciiOnly(outputFiles[0]!.text));
}

/**
 * The bundle with every character outside ASCII written as `\uXXXX`. esbuild escapes them in code
 * but keeps comments as they are, and one such character (a ’ in a dependency's comment) makes V8
 * hold the whole source as two bytes a character: reading it from UTF-8 and compiling it then
 * cost more at every start. In a comment the escape is only text.
 */
export function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A plugin directory that runs the bundle with the node on PATH: its files beside a launcher.
 * The release archives ship their own Node instead (scripts/build-plugin.ts); this form is what
 * the benchmarks compare against. Returns `dir`.
 */
export function bundlePlugin(entry: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const file of pluginFiles(entry)) writeFileSync(path.join(dir, file.name), file.data);
  const launcher = path.join(dir, PLUGIN_EXECUTABLE);
  writeFileSync(launcher, '#!/bin/sh\nexec node "$(dirname "$0")/main.js" "$@"\n');
  chmodSync(launcher, 0o755);
  return dir;
}
