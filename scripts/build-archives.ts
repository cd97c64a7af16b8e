import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { packageVersion } from "../provider/client/version";
import { nodeArchive, nodeBuilds } from "./plugin-archive";
import type { BundledFile } from "./plugin-bundle";

/** A command shipped with its own Node, one archive per target: the plugin, the emulator. */
export interface ArchivedCommand {
  /** The compiled entry point, relative to the repository root. */
  entry: string;
  /** The JavaScript each archive holds, bundled from `entry`. */
  files(entry: string): BundledFile[];
  /** The launcher's name at the archive's root (with `.cmd` on Windows). */
  executable: string;
  /** The archive's file name for a version and a target. */
  archiveName(version: string, target: string): string;
  /** Where the archives go unless the command line names a directory, relative to the repository root. */
  defaultOut: string;
}

const root = path.join(__dirname, "..", "..");

/**
 * `node <build script> [<dir>] [--target <os>-<arch>]...`: the archives of `command`, one per
 * target (every pinned one, or those given), each running on its own Node: the user needs no Node.
 * Writes them into the directory given or the default one, emptied first, and prints their paths.
 * A build of every target also writes SHA256SUMS, last: the release's checksums, and the sign for
 * scripts/test that the set is whole.
 */
export function buildArchivesCommand(command: ArchivedCommand): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { target: { type: "string", multiple: true } },
  });
  const out = positionals[0] ? path.resolve(positionals[0]) : path.join(root, command.defaultOut);
  buildArchives(command, out, values.target ?? []).then(
    (archives) => console.log(archives.join("\n")),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

async function buildArchives(command: ArchivedCommand, out: string, targets: string[]): Promise<string[]> {
  const builds = nodeBuilds(targets);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = command.files(path.join(root, command.entry));

  const archives = await Promise.all(
    builds.targets.map(async (target) => {
      const name = command.archiveName(packageVersion(), target);
      const bytes = await nodeArchive(command.executable, target, files, path.join(builds.root, target));
      // Whole or absent: scripts/test takes an archive newer than the compile for a finished build.
      writeFileSync(path.join(out, `${name}.partial`), bytes);
      renameSync(path.join(out, `${name}.partial`), path.join(out, name));
      return { name, sha256: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
  if (targets.length === 0)
    writeFileSync(path.join(out, "SHA256SUMS"), archives.map((a) => `${a.sha256}  ${a.name}\n`).join(""));
  return archives.map((a) => path.join(out, a.name));
}
