import { setTimeout as sleep } from "node:timers/promises";

/**
 * After a request whose outcome is unknown (no usable response), the service is read to find out
 * what it did: at once, then after each wait, since what a request made can take a moment to
 * show. Returns the first non-empty finding, or an empty list when nothing appeared.
 */
export async function lookAgain<T>(waitsMs: readonly number[], look: () => Promise<T[]>): Promise<T[]> {
  for (const wait of [0, ...waitsMs]) {
    await sleep(wait);
    const found = await look();
    if (found.length > 0) return found;
  }
  return [];
}
