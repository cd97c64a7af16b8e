import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
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

export function fileOf(directory: string, relativePath: string): string {
  return path.join(directory, ...relativePath.split("/"));
}

/**
 * The directory's manifest, or the failures that keep it from being published: the directory's own
 * (missing, two paths making one object name), else each file's against the object rules.
 */
export function readManifest(directory: string): { manifest?: Manifest; failures: CheckFailure[] } {
  let names: Map<string, string>;
  try {
    names = objectNames(directory);
  } catch (err) {
    return { failures: [{ property: "directory", reason: (err as Error).message }] };
  }
  const manifest: Manifest = {};
  const problems: string[] = [];
  const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  for (const relativePath of names.keys()) {
    const { sha256, bytes } = hashFile(fileOf(directory, relativePath), chunk);
    const problem = fileProblem(relativePath, bytes);
    if (problem) problems.push(problem);
    else manifest[relativePath] = sha256;
  }
  if (problems.length === 0) return { manifest, failures: [] };
  const listed = problems.slice(0, LISTED_FAILURES).join("; ");
  const more = problems.length > LISTED_FAILURES ? `; and ${problems.length - LISTED_FAILURES} more` : "";
  return {
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

function hashFile(file: string, chunk: Buffer): { sha256: string; bytes: number } {
  const hash = createHash("sha256");
  const fd = openSync(file, "r");
  let bytes = 0;
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, read));
      bytes += read;
    }
  } finally {
    closeSync(fd);
  }
  return { sha256: hash.digest("hex"), bytes };
}

function fileProblem(relativePath: string, bytes: number): string | undefined {
  if (bytes < MIN_OBJECT_BYTES || bytes > MAX_OBJECT_BYTES)
    return `${JSON.stringify(relativePath)} of ${bytes} bytes (from ${MIN_OBJECT_BYTES} to ${MAX_OBJECT_BYTES})`;
  if (mimeTypeForPath(relativePath) === undefined)
    return `${JSON.stringify(relativePath)}, whose extension maps to none of ${Object.keys(ALLOWED_MIME_TYPES).length} accepted MIME types`;
  return undefined;
}
