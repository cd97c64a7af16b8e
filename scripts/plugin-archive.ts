import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { hostTarget, PLUGIN_EXECUTABLE, releaseArchiveName } from "../provider/release-assets";
import type { BundledFile } from "./plugin-bundle";
import { reproducibleTarGz, type TarEntry } from "./reproducible-tar";

/**
 * The plugin archives the engine downloads: one per target (`<os>-<arch>` as the engine names
 * them), each holding the unmodified Node build of scripts/install-node-builds, its LICENSE, the
 * bundled plugin with the main.js that runs it, and the launcher the engine looks for at the
 * archive's root. The emulator's archives are made the same way, around its own bundle and launcher.
 */

const repoRoot = path.join(__dirname, "..", "..");

export { hostTarget };

/** The asset name the engine asks a server for. */
export function archiveName(version: string, target: string): string {
  return releaseArchiveName(PLUGIN_EXECUTABLE, version, target);
}

/** The launcher's file name in a target's archive: the engine tries `.exe`, then `.cmd` on Windows. */
export function launcherName(target: string, executable = PLUGIN_EXECUTABLE): string {
  return isWindows(target) ? `${executable}.cmd` : executable;
}

/** The Node executable's file name in a target's archive. */
export function nodeName(target: string): string {
  return isWindows(target) ? "node.exe" : "node";
}

function isWindows(target: string): boolean {
  return target.startsWith("windows-");
}

// AsyncLocalStorage (the plugin's engine log, provider/plugin/engine-log.ts) on V8's async context
// frames instead of async hooks: with hooks, once it first runs, every promise and native callback
// of the process pays for them. The default from Node 24; the same store seen by the same code.
const NODE_FLAGS = "--experimental-async-context-frame";

// The engine may start the plugin through a symlink and from any directory: the launcher finds
// its own directory without readlink -f or realpath, which macOS's older tools lack.
const SH_LAUNCHER = `#!/bin/sh
self=$0
case $self in */*) ;; *) self=./$self ;; esac
while [ -h "$self" ]; do
  link=$(readlink "$self") || exit
  case $link in /*) self=$link ;; *) self=\${self%/*}/$link ;; esac
done
dir=$(cd "\${self%/*}" && pwd -P)
exec "$dir/node" ${NODE_FLAGS} "$dir/main.js" "$@"
`;

// %~dp0 is the directory of the script itself, with a trailing backslash.
const CMD_LAUNCHER = `@"%~dp0node.exe" ${NODE_FLAGS} "%~dp0main.js" %*\r\n`;

/**
 * Fetches (or reuses from the cache) the Node builds of `targets` (every pinned target when
 * empty) and returns the directory holding one subdirectory per target.
 */
export function nodeBuilds(targets: string[]): { root: string; targets: string[] } {
  const script = path.join(repoRoot, "scripts", "install-node-builds");
  const root = execFileSync("bash", [script, ...targets], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return { root, targets: targets.length ? targets : readdirSync(root).sort() };
}

/** One target's archive of the command `executable`: its launcher runs `files`' main.js on the Node build in `nodeDir`. */
export function nodeArchive(
  executable: string,
  target: string,
  files: BundledFile[],
  nodeDir: string,
): Promise<Buffer> {
  const entries: TarEntry[] = [
    {
      name: launcherName(target, executable),
      mode: 0o755,
      data: Buffer.from(isWindows(target) ? CMD_LAUNCHER : SH_LAUNCHER),
    },
    { name: nodeName(target), mode: 0o755, data: readFileSync(path.join(nodeDir, nodeName(target))) },
    { name: "LICENSE.node", mode: 0o644, data: readFileSync(path.join(nodeDir, "LICENSE")) },
    ...files.map((file) => ({ name: file.name, mode: 0o644, data: file.data })),
  ];
  return reproducibleTarGz(entries);
}
