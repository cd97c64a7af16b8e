import { type BackoffPolicy, backoffDelay } from "./backoff";
import type { Clock } from "./clock";
import { ApiError, SyntheticCode } from "./errors";
import { AccountLimits } from "./pacing";

/** Whether and when to try a failed request again. */

export interface RetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Budget of one call, attempts and waits together: no wait is started that would end past it. */
  deadlineMs: number;
  /**
   * Attempts in all when the connection is refused: nothing listens at the address, which a few
   * quick attempts (the first waits of the backoff) confirm; a preview against a stopped server
   * then fails in about a second instead of after the whole backoff.
   */
  refusedAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  deadlineMs: 120_000,
  refusedAttempts: 3,
};

const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
const TRANSIENT_TRANSPORT_CODES = new Set<string>([
  SyntheticCode.TIMEOUT,
  SyntheticCode.CONNECTION_FAILED,
  SyntheticCode.CONNECTION_REFUSED,
  SyntheticCode.CONNECTION_RESET,
]);
/** 429s that report a daily quota rather than a rate: waiting seconds does not help. */
const QUOTA_CODES = new Set(["DAILY_SNAPSHOTS_LIMIT_REACHED"]);
/**
 * 429s whose window is documented although the server sends no Retry-After: the request was
 * refused because one like it started less than a window ago (from another process, or before
 * this one started), so waiting one whole window is enough and a jittered backoff could fall
 * short of it several times over.
 */
const WINDOW_CODES = new Map<string, number>([
  ["KEEP_CALM", AccountLimits.APP_SNAPSHOT_INTERVAL_MS],
  ["RESTORE_IN_PROGRESS", AccountLimits.RESTORE_INTERVAL_MS],
]);

/**
 * A request is tried again when the failure is transient and trying again cannot apply it twice
 * (5xx answers to POST carry `mayHaveCommitted`, so only idempotent requests retry a 500):
 * `mayHaveCommitted` is only ever set on non-idempotent requests whose outcome is unknown, and a
 * 429 or a refused connection means the server did not act. Such a request goes again only when
 * its settle read (RetryOptions.settle) shows it has not taken effect.
 */
export function shouldRetry(error: ApiError): boolean {
  if (error.mayHaveCommitted) return false;
  // The notes give these codes without a status: a refusal within the window, whatever status
  // the live service answers it with.
  if (WINDOW_CODES.has(error.code)) return true;
  if (error.status === undefined) return TRANSIENT_TRANSPORT_CODES.has(error.code);
  // A 500 of a read, delete or absolute update is as likely a passing fault as a 502: one failed
  // GET must not fail a whole update. (A POST's 500 may have committed, and is settled by reading.)
  if (error.status === 500) return true;
  return TRANSIENT_STATUSES.has(error.status) && !QUOTA_CODES.has(error.code);
}

export interface RetryOptions {
  policy: RetryPolicy;
  clock: Clock;
  /** Uniform in [0, 1); Math.random outside tests. */
  random: () => number;
  /**
   * Reads the service after an attempt whose outcome is unknown (mayHaveCommitted): true when the
   * request took effect, which ends the call as a success; false when it did not, which makes the
   * failure transient: the request is sent again after the same backoff, within the same attempts
   * and deadline. Only for requests whose answer carries nothing the caller needs.
   */
  settle?: () => Promise<boolean>;
}

/**
 * Runs `attempt` until it succeeds, fails for good, runs out of attempts or would run past the
 * deadline, which each attempt is given so its own waits (pacing) respect it too; the last error
 * is thrown as is. A Retry-After sent by the server replaces the backoff. Resolves undefined when
 * `settle` found that a lost attempt took effect.
 */
export async function withRetry<T>(
  attempt: (attemptNumber: number, deadline: number) => Promise<T>,
  options: RetryOptions,
): Promise<T | undefined> {
  const { policy, clock, random, settle } = options;
  const deadline = clock.now() + policy.deadlineMs;
  let lostBefore = false;
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber, deadline);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      error.afterLostAttempt = lostBefore;
      lostBefore ||= error.outcomeUnknown;
      const settling = error.mayHaveCommitted && settle !== undefined;
      if (settling && (await settledBy(settle, error))) return undefined;
      if (!(settling || shouldRetry(error)) || attemptNumber >= attemptsFor(error, policy)) throw error;
      const delay = error.retryAfterMs ?? WINDOW_CODES.get(error.code) ?? backoffDelay(attemptNumber, policy, random);
      if (clock.now() + delay > deadline) throw error;
      await clock.sleep(delay);
    }
  }
}

function attemptsFor(error: ApiError, policy: RetryPolicy): number {
  return error.code === SyntheticCode.CONNECTION_REFUSED
    ? Math.min(policy.refusedAttempts, policy.maxAttempts)
    : policy.maxAttempts;
}

/**
 * A read that fails (its own retries spent) settles nothing: the attempt's error, which names the
 * operation and says it may have taken effect, is the one to report.
 */
async function settledBy(settle: () => Promise<boolean>, lost: ApiError): Promise<boolean> {
  try {
    return await settle();
  } catch {
    throw lost;
  }
}
