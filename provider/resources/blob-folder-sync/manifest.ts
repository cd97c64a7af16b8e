import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, type Stats, statSync } from "node:fs";
import * as path from "node:path";
import { objectNames } from "../../components/blob-folder-files";
import type { CheckFailure } from "../../field-check";
import { ALLOWED_MIME_TYPES, MAX_OBJECT_BYTES, MIN_OBJECT_BYTES, mimeTypeForPath } from "../../kinds/blob-object";

/**
 * What the check reads of a synced folder: every file below the directory, hashed, with the rules
 * each file's object must follow (size, MIME type, a name of its own). The per-file mode walks the
 * directory with the same code (components/blob-folder-files.ts), so both modes name objects alike.
 */

/** Failures listed one by one at most; the rest are counted. */
const LISTED_FAILURES = 5;

/** Relative path ("/"-separated) -> hex sha256 of its content, in path order. */
export type Manifest = Record<string, string>;

/** A directory's manifest with the total of its files' sizes. */
export interface ReadManifest {
  manifest?: Manifest;
  bytes: number;
  failures: CheckFailure[];
}

export function fileOf(directory: string, relativePath: string): string {
  return path.join(directory, ...relativePath.split("/"));
}

/**
 * The directory's manifest, or the failures that keep it from being published: the directory's own
 * (missing, two paths making one object name), else each file's against the object rules.
 */
export function readManifest(directory: string): ReadManifest {
  let names: Map<string, string>;
  try {
    names = objectNames(directory);
  } catch (err) {
    return { bytes: 0, failures: [{ property: "directory", reason: (err as Error).message }] };
  }
  const manifest: Manifest = {};
  const problems: string[] = [];
  let total = 0;
  for (const relativePath of names.keys()) {
    const file = fileOf(directory, relativePath);
    const stat = statSync(file);
    const problem = fileProblem(relativePath, stat.size);
    if (problem) problems.push(problem);
    else manifest[relativePath] = hashOf(file, stat);
    total += stat.size;
  }
  if (problems.length === 0) return { manifest, bytes: total, failures: [] };
  const listed = problems.slice(0, LISTED_FAILURES).join("; ");
  const more = problems.length > LISTED_FAILURES ? `; and ${problems.length - LISTED_FAILURES} more` : "";
  return {
    bytes: total,
    failures: [
      {
        property: "directory",
        reason: `every file must be an object the blob API accepts (1 KiB to 100 MB, an extension of an accepted MIME type), got ${listed}${more} in ${JSON.stringify(directory)}`,
      },
    ],
  };
}

/**
 * Files are hashed through one buffer, not read whole: a folder of 20,000 files would otherwise
 * allocate its whole size (gigabytes) at every check before the collector gives it back.
 */
const HASH_CHUNK_BYTES = 1024 * 1024;
let chunk: Buffer | undefined;

/**
 * The hashes this process took, by file. The check, the diff and the update of one command each
 * read the folder; a file is hashed again unless its size, inode and times are those it had when
 * hashed, and it was last changed over a second before it was hashed, since a change within the
 * file system's clock granularity of the hashing would leave its times unchanged (git's "racy"
 * entries).
 */
const hashed = new Map<string, { stamp: string; sha256: string }>();
const SETTLED_MS = 1000;

function hashOf(file: string, stat: Stats): string {
  const stamp = `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
  const known = hashed.get(file);
  if (known?.stamp === stamp) return known.sha256;
  const startedAt = Date.now();
  const hash = createHash("sha256");
  chunk ??= Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  const fd = openSync(file, "r");
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  const sha256 = hash.digest("hex");
  if (Math.max(stat.mtimeMs, stat.ctimeMs) < startedAt - SETTLED_MS) hashed.set(file, { stamp, sha256 });
  else hashed.delete(file);
  return sha256;
}

/**
 * What the checked inputs hold of the manifest: one line that changes whenever a file does, so a
 * preview names the change, without the whole manifest crossing the engine at every call (the
 * state's `files` holds it).
 */
export function contentsOf({ manifest, bytes }: ReadManifest): string | undefined {
  if (!manifest) return undefined;
  const digest = createHash("sha256");
  for (const [relativePath, sha256] of Object.entries(manifest)) digest.update(`${relativePath}\0${sha256}\n`);
  const files = Object.keys(manifest).length;
  return `${files} file${files === 1 ? "" : "s"}, ${bytes} bytes, sha256 ${digest.digest("hex").slice(0, 16)}`;
}

function fileProblem(relativePath: string, bytes: number): string | undefined {
  if (bytes < MIN_OBJECT_BYTES || bytes > MAX_OBJECT_BYTES)
    return `${JSON.stringify(relativePath)} of ${bytes} bytes (from ${MIN_OBJECT_BYTES} to ${MAX_OBJECT_BYTES})`;
  if (mimeTypeForPath(relativePath) === undefined)
    return `${JSON.stringify(relativePath)}, whose extension maps to none of ${Object.keys(ALLOWED_MIME_TYPES).length} accepted MIME types`;
  return undefined;
}
