import { providerClock } from "../../runtime";

/** The server's clock (its latest Date header) carried forward: creation times are on it, not ours. */
let offsetMs: number | undefined;

export function noteServerTime(epochMs: number): void {
  offsetMs = epochMs - providerClock().now();
}

/** The provider's clock until the server has answered once. */
export function serverNow(): number {
  return providerClock().now() + (offsetMs ?? 0);
}
