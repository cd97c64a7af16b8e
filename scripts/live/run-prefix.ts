import { randomBytes } from "node:crypto";

/**
 * What every name a live run creates starts with, and what the sweeper looks for: lower-case
 * letters only, so that a name made from it suits every kind (a database's is letters and digits).
 */
export const TEST_PREFIX = "pulumilt";

/** Seconds since the epoch, in base 36: six characters until 2038, as the run prefix carries them. */
const STAMP_LENGTH = 6;
/** Random base-36 characters after the stamp, so that two runs of one second differ. */
const NONCE_LENGTH = 2;

/**
 * A run's prefix: TEST_PREFIX, when the run started (so that the sweeper can tell a leak's age from
 * its name alone: the service gives a database no creation time) and a nonce. 16 characters of
 * a-z and 0-9, leaving 16 for what a test adds within the service's 32.
 */
export function newRunPrefix(now = Date.now()): string {
  const stamp = Math.floor(now / 1000)
    .toString(36)
    .padStart(STAMP_LENGTH, "0");
  const nonce = [...randomBytes(NONCE_LENGTH)].map((byte) => (byte % 36).toString(36)).join("");
  return `${TEST_PREFIX}${stamp}${nonce}`;
}

/**
 * When the run that made `name` started (epoch ms), or undefined for a name that no live run
 * made: without TEST_PREFIX, or without a stamp after it.
 */
export function runStartOf(name: string): number | undefined {
  if (!name.startsWith(TEST_PREFIX)) return undefined;
  const stamp = name.slice(TEST_PREFIX.length, TEST_PREFIX.length + STAMP_LENGTH);
  if (!/^[0-9a-z]{6}$/.test(stamp)) return undefined;
  return Number.parseInt(stamp, 36) * 1000;
}
