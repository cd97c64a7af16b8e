import type { Progress } from "./sync";

/**
 * Where a synced folder's progress goes while it uploads: an ephemeral status line under the
 * resource the engine shows, when the process has a way to it (the native plugin sets one, see
 * plugin/engine-log.ts); nowhere otherwise.
 */
let statusSink: ((message: string) => void) | undefined;

export function sendStatusTo(sink: (message: string) => void): void {
  statusSink = sink;
}

/** At most one status per this interval, and always the last one: a line per file would flood the engine. */
const STATUS_EVERY_MS = 250;

/** A reporter of one sync's progress, `what` naming the folder. */
export function reportProgress(what: string): (progress: Progress) => void {
  let lastAt = 0;
  return (progress) => {
    const now = Date.now();
    const last = progress.files === progress.totalFiles;
    if (!statusSink || (!last && now - lastAt < STATUS_EVERY_MS)) return;
    lastAt = now;
    statusSink(
      `${what}: uploaded ${progress.files} of ${progress.totalFiles} files, ${kib(progress.bytes)} of ${kib(progress.totalBytes)}`,
    );
  };
}

function kib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
