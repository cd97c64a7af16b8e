/**
 * The blob server's clock as last seen in this process (the Date header of its latest answer),
 * carried forward on the local clock. Object creation times are on the server's clock; the local
 * one may be off by any amount.
 */
let offsetMs: number | undefined;

export function noteServerTime(epochMs: number): void {
  offsetMs = epochMs - Date.now();
}

/** The local clock until the server has answered once. */
export function serverNow(): number {
  return Date.now() + (offsetMs ?? 0);
}
