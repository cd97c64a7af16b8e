import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { packageVersion } from "../../provider/client/version";
import { PLUGIN_BUNDLE } from "../../provider/plugin/code-cache";
import { archiveName, hostTarget, nodeName } from "../../scripts/plugin-archive";
import { pluginFiles } from "../../scripts/plugin-bundle";
import { repoRoot } from "../../tests/e2e/harness/engine";

/** Where `npm run build:plugin` writes the archives. */
export const ARCHIVE_DIR = path.join(repoRoot, "dist", "plugin");

/** The compiled entry of the plugin the archives ship. */
export const PLUGIN_ENTRY = path.join(repoRoot, "dist", "provider", "plugin", "main.js");

/**
 * The host's archive of `npm run build:plugin`, as the engine installs it: extracted into `dir`
 * (emptied first), run by its own Node through its own launcher. An archive built before the last
 * compile would time other code than the bundle beside it: refused. With `entry`, the archive's
 * JavaScript is replaced by that entry's, bundled the same way, so another plugin (the no-op
 * floor) runs on the same Node and launcher. Returns `dir`.
 */
export function archivePlugin(dir: string, entry?: string): string {
  const archive = path.join(ARCHIVE_DIR, archiveName(packageVersion(), hostTarget()));
  const rebuild = `run \`npm run build:plugin -- --target ${hostTarget()}\``;
  if (!existsSync(archive)) throw new Error(`no ${archive}: ${rebuild}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  const current = pluginFiles(PLUGIN_ENTRY).find((file) => file.name === PLUGIN_BUNDLE)!;
  if (!readFileSync(path.join(dir, PLUGIN_BUNDLE)).equals(current.data))
    throw new Error(`${archive} holds another plugin than the compiled one: ${rebuild}`);
  if (entry) for (const file of pluginFiles(entry)) writeFileSync(path.join(dir, file.name), file.data);
  return dir;
}

/** The Node of a plugin directory made by archivePlugin. */
export function archiveNode(dir: string): string {
  return path.join(dir, nodeName(hostTarget()));
}
