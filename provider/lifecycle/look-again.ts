import { providerClock } from "../runtime";

/**
 * After a request whose outcome is unknown (no usable response), the service is read to find out
 * what it did: at once, then after each wait of a schedule, since a request that outlived its
 * answer may still be at work. The schedules of every such request are here, each with why it is
 * as long as it is; a longer one costs listings and time only when nothing appears.
 */
export const LOOK_AGAIN_MS = {
  /**
   * A database holds memory of the plan until it is deleted, and one created twice is the costliest
   * mistake: the longest schedule, seven seconds in all.
   */
  databaseCreate: [1_000, 2_000, 4_000],
  /** A workspace created twice only clutters the account (and is easy to delete): three seconds in all. */
  workspaceCreate: [1_000, 2_000],
  /**
   * Each look lists every snapshot of the account, and a snapshot missed here is never taken twice
   * (the error says to run pulumi up again): one more look, after two seconds.
   */
  appSnapshot: [2_000],
} as const;

/**
 * A lost upload looks again on a schedule of its own (blob-object/upload.ts): until the blob
 * server's 30 s list cache has passed on the server's clock, which no fixed list of waits can
 * know. It lists this often meanwhile, so it ends at most this long after the cache has passed.
 */
export const LOST_UPLOAD_LOOK_EVERY_MS = 3_000;

/**
 * Looks at once, then after each wait of `waitsMs` (on the provider's clock) until a look finds
 * something. Returns that finding, or an empty list when nothing appeared.
 */
export async function lookAgain<T>(waitsMs: readonly number[], look: () => Promise<T[]>): Promise<T[]> {
  let found = await look();
  for (const wait of waitsMs) {
    if (found.length > 0) break;
    await providerClock().sleep(wait);
    found = await look();
  }
  return found;
}
