import { processStatusSink } from "../../channels";
import type { Progress } from "./sync";

/**
 * A synced folder's progress while it uploads, as an ephemeral status (channels.ts): through the
 * native plugin under the call's resource; from a dynamic provider, which is not told the
 * resource, under the URN its SDK class passed (see ./index.ts); nowhere otherwise.
 */

/**
 * The input under which the TypeScript SDK passes the set's own URN: the dynamic provider's calls
 * carry the properties alone. Not a declared input: no diff, check or output sees it.
 */
export const STATUS_URN_INPUT = "__statusUrn";

/** At most one status per this interval, and always the last one: a line per file would flood the engine. */
const STATUS_EVERY_MS = 250;

/**
 * A reporter of one sync's progress, `what` naming the folder, to the process's status sink, else
 * to `fallback` (a dynamic provider's, for the resource it was told).
 */
export function reportProgress(what: string, fallback?: (message: string) => void): (progress: Progress) => void {
  let lastAt = 0;
  return (progress) => {
    const sink = processStatusSink() ?? fallback;
    const now = Date.now();
    const last = progress.files === progress.totalFiles;
    if (!sink || (!last && now - lastAt < STATUS_EVERY_MS)) return;
    lastAt = now;
    sink(
      `${what}: uploaded ${progress.files} of ${progress.totalFiles} files, ${kib(progress.bytes)} of ${kib(progress.totalBytes)}`,
    );
  };
}

function kib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
