import type { Progress } from "./sync";

/**
 * Where a synced folder's progress goes while it uploads: an ephemeral status the CLI shows on the
 * resource's line. The native plugin sends it to the engine under the call's resource
 * (plugin/engine-log.ts); a dynamic provider, which is not told the resource, under the URN its
 * SDK class passed (see ./index.ts); nowhere otherwise.
 */
let statusSink: ((message: string) => void) | undefined;

/**
 * The input under which the TypeScript SDK passes the set's own URN: the dynamic provider's calls
 * carry the properties alone. Not a declared input: no diff, check or output sees it.
 */
export const STATUS_URN_INPUT = "__statusUrn";

export function sendStatusTo(sink: (message: string) => void): void {
  statusSink = sink;
}

/** At most one status per this interval, and always the last one: a line per file would flood the engine. */
const STATUS_EVERY_MS = 250;

/**
 * A reporter of one sync's progress, `what` naming the folder, to the process's status sink, else
 * to `fallback` (a dynamic provider's, for the resource it was told).
 */
export function reportProgress(what: string, fallback?: (message: string) => void): (progress: Progress) => void {
  let lastAt = 0;
  return (progress) => {
    const sink = statusSink ?? fallback;
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
