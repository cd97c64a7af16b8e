import { providerClock } from "../../runtime";

/**
 * The blob server's clock as last seen in this process (the Date header of its latest answer),
 * carried forward on the provider's clock. Object creation times are on the server's clock; the
 * provider's may be off by any amount.
 */
let offsetMs: number | undefined;

export function noteServerTime(epochMs: number): void {
  offsetMs = epochMs - providerClock().now();
}

/** The provider's clock until the server has answered once. */
export function serverNow(): number {
  return providerClock().now() + (offsetMs ?? 0);
}
