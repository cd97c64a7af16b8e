import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { bundlePlugin } from "../../scripts/plugin-bundle";
import { archivePlugin, PLUGIN_ENTRY } from "./archive-plugin";
import { providerConfig } from "./emulator-account";
import { projectFiles } from "./mix-stack";
import type { BenchPath } from "./paths";
import { benchStack, type BenchStack, PLUGINS_DIR } from "./stack";

const FLOOR_ENTRY = path.join(__dirname, "native-floor.js");

/**
 * The plugin directory of a native path, none for a dynamic one: the plugin or the floor bundled
 * as `npm run build:plugin` bundles it, launched by the node on PATH or, on the archive's paths,
 * by the archive's launcher and Node, so a plugin and its floor start alike.
 */
export function benchPlugin(benchPath: BenchPath): string | undefined {
  const dir = path.join(PLUGINS_DIR, benchPath);
  switch (benchPath) {
    case "native":
      return bundlePlugin(PLUGIN_ENTRY, dir);
    case "nativeFloor":
      return bundlePlugin(FLOOR_ENTRY, dir);
    case "nativeArchive":
      return archivePlugin(dir);
    case "archiveFloor":
      return archivePlugin(dir, FLOOR_ENTRY);
    case "dynamic":
    case "dynamicFloor":
      return undefined;
  }
}

/** A stack of programs/blobs for N blob objects on one path, configured against the emulator. */
export async function blobStack(emulator: RunningEmulator, n: number, benchPath: BenchPath): Promise<BenchStack> {
  const plugin = benchPlugin(benchPath);
  const config = { ...providerConfig(emulator), path: { value: benchPath }, total: { value: String(n) } };
  return benchStack("blobs", config, projectFiles(n), plugin);
}
