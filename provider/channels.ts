/**
 * The channels a handler reports through besides its results: warnings, and ephemeral statuses the
 * CLI shows on a resource's line. The native plugin points both at the engine (plugin/engine-log.ts).
 */

/**
 * A dynamic provider's only channel for warnings is stderr (pulumi.log does not reach the CLI);
 * the native plugin, whose stderr the engine hides, redirects them.
 */
let warningSink = (message: string) => console.warn(`warning: ${message}`);

export function warn(message: string): void {
  warningSink(message);
}

/** Every later warning goes to `sink` instead of stderr. */
export function sendWarningsTo(sink: (message: string) => void): void {
  warningSink = sink;
}

/**
 * Statuses go nowhere unless the process says where: the native plugin sends them to the engine
 * under the call's resource; a dynamic provider, which is not told the resource, gives its own
 * fallback to each report (resources/blob-folder-sync).
 */
let statusSink: ((message: string) => void) | undefined;

export function sendStatusTo(sink: (message: string) => void): void {
  statusSink = sink;
}

/** The process's status sink, if one was set. */
export function processStatusSink(): ((message: string) => void) | undefined {
  return statusSink;
}
