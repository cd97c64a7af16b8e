import { providerClock } from "../runtime";

/**
 * After an unknown outcome the service is read again on a schedule, since a request that outlived
 * its answer may still be at work; a longer schedule costs only when nothing appears.
 */
export const LOOK_AGAIN_MS = {
  /** A database created twice holds plan memory until deleted: the costliest mistake, the longest wait. */
  databaseCreate: [1_000, 2_000, 4_000],
  /** A workspace created twice only clutters the account (and is easy to delete): three seconds in all. */
  workspaceCreate: [1_000, 2_000],
  /** Each look lists every snapshot, and a missed one is never taken twice: one more look. */
  appSnapshot: [2_000],
} as const;

/** A lost upload looks until the server's list cache (LIST_CACHE_MS) has passed, this often. */
export const LOST_UPLOAD_LOOK_EVERY_MS = 3_000;

/** Looks at once, then after each wait (provider's clock), until something is found. */
export async function lookAgain<T>(waitsMs: readonly number[], look: () => Promise<T[]>): Promise<T[]> {
  let found = await look();
  for (const wait of waitsMs) {
    if (found.length > 0) break;
    await providerClock().sleep(wait);
    found = await look();
  }
  return found;
}
