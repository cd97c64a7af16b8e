import type { IncomingMessage } from "node:http";

/**
 * The wait of a "latency" fault models a request that takes longer to arrive, so it ends where
 * the request has fully arrived: with its headers for a body-less request, once its body is read
 * otherwise. Handlers admit a request on its headers (authentication, an upload's in-flight slot)
 * before reading the body, so a slow request keeps what it was admitted to for the whole wait,
 * as on the live service. Keyed by request so `readBody` needs no extra argument from the routes.
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
