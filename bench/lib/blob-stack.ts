import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { bundlePlugin } from "../../scripts/plugin-bundle";
import { repoRoot } from "../../tests/e2e/harness/engine";
import { providerConfig } from "./emulator-account";
import { projectFiles } from "./mix-stack";
import type { BenchPath } from "./paths";
import { benchStack, type BenchStack, PLUGINS_DIR } from "./stack";

/** What serves `squarecloud:index:*` on each native path: the compiled entry of its plugin. */
const PLUGIN_ENTRIES: Partial<Record<BenchPath, string>> = {
  native: path.join(repoRoot, "dist", "provider", "plugin", "main.js"),
  nativeFloor: path.join(__dirname, "native-floor.js"),
};

/**
 * The plugin directory of a native path, none for a dynamic one: the plugin bundled as
 * `npm run build:plugin` bundles it, launched by the node on PATH, so both plugins start alike.
 */
export function benchPlugin(benchPath: BenchPath): string | undefined {
  const entry = PLUGIN_ENTRIES[benchPath];
  return entry && bundlePlugin(entry, path.join(PLUGINS_DIR, benchPath));
}

/** A stack of programs/blobs for N blob objects on one path, configured against the emulator. */
export async function blobStack(emulator: RunningEmulator, n: number, benchPath: BenchPath): Promise<BenchStack> {
  const plugin = benchPlugin(benchPath);
  const config = { ...providerConfig(emulator), path: { value: benchPath }, total: { value: String(n) } };
  return benchStack("blobs", config, projectFiles(n), plugin);
}
