import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
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
  for (const relativePath of names.keys()) {
    const content = readFileSync(fileOf(directory, relativePath));
    const problem = fileProblem(relativePath, content.length);
    if (problem) problems.push(problem);
    else manifest[relativePath] = createHash("sha256").update(content).digest("hex");
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

function fileProblem(relativePath: string, bytes: number): string | undefined {
  if (bytes < MIN_OBJECT_BYTES || bytes > MAX_OBJECT_BYTES)
    return `${JSON.stringify(relativePath)} of ${bytes} bytes (from ${MIN_OBJECT_BYTES} to ${MAX_OBJECT_BYTES})`;
  if (mimeTypeForPath(relativePath) === undefined)
    return `${JSON.stringify(relativePath)}, whose extension maps to none of ${Object.keys(ALLOWED_MIME_TYPES).length} accepted MIME types`;
  return undefined;
}
