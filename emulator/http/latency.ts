import type { IncomingMessage } from "node:http";

/**
 * A "latency" wait models a request slow to arrive: it ends once the body is read, so a request
 * admitted on its headers (an upload's slot) keeps that for the whole wait, as on the live service.
 */
const pending = new WeakMap<IncomingMessage, number | Promise<void>>();

/** `wait`: milliseconds, or a promise that settles when a "hold" fault is released. */
export function delayArrival(req: IncomingMessage, wait: number | Promise<void>): void {
  pending.set(req, wait);
}

/** Waits out the request's pending latency the first time it is called; at once afterwards. */
export async function arrived(req: IncomingMessage): Promise<void> {
  const wait = pending.get(req);
  if (wait === undefined) return;
  pending.delete(req);
  await (typeof wait === "number" ? new Promise((resolve) => setTimeout(resolve, wait)) : wait);
}
