import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { packageVersion } from "../provider/client/version";
import { emulatorArchiveName } from "../provider/release-assets";
import { archiveName, hostTarget } from "../scripts/plugin-archive";
import { installedToolDir, repoRoot } from "./install-script";

/** Where `npm run build:plugin` writes the archives; scripts/test builds the whole set before jest. */
export const archiveDir = path.join(repoRoot, "dist", "plugin");

/** The path of one target's archive (the host's by default), which must have been built. */
export function builtArchive(target = hostTarget()): string {
  const file = path.join(archiveDir, archiveName(packageVersion(), target));
  if (!existsSync(file)) throw new Error(`no ${file}: run \`npm run build:plugin\` (scripts/test does)`);
  return file;
}

/** Where `npm run build:emulator` writes the emulator's archives; scripts/test builds the host's before jest. */
export const emulatorArchiveDir = path.join(repoRoot, "dist", "emulator-archives");

/** The path of the host's emulator archive, which must have been built. */
export function builtEmulatorArchive(): string {
  const file = path.join(emulatorArchiveDir, emulatorArchiveName(packageVersion(), hostTarget()));
  if (!existsSync(file)) throw new Error(`no ${file}: run \`npm run build:emulator\` (scripts/test does)`);
  return file;
}

/** Every target Node is pinned for (scripts/install-node-builds), from its cache. */
export function pinnedTargets(): string[] {
  const root = installedToolDir("install-node-builds", "Node builds");
  return readdirSync(root).sort();
}

export interface ArchiveFile {
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
  type: string;
  data: Buffer;
}

/** The entries of a gzipped tar archive, by name, in the archive's order. */
export function readTarGz(file: string): Map<string, ArchiveFile> {
  const tar = gunzipSync(readFileSync(file));
  const entries = new Map<string, ArchiveFile>();
  const field = (h: Buffer, at: number, len: number) =>
    h
      .subarray(at, at + len)
      .toString("utf8")
      .replace(/\0.*$/s, "");
  const octal = (h: Buffer, at: number, len: number) => parseInt(field(h, at, len).trim() || "0", 8);
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = tar.subarray(at, at + 512);
    const name = field(h, 0, 100);
    if (!name) break;
    const size = octal(h, 124, 12);
    entries.set(name, {
      mode: octal(h, 100, 8),
      uid: octal(h, 108, 8),
      gid: octal(h, 116, 8),
      mtime: octal(h, 136, 12),
      type: field(h, 156, 1),
      data: tar.subarray(at + 512, at + 512 + size),
    });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}
