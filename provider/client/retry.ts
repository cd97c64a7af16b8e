import { BackoffPolicy, backoffDelay } from "./backoff";
import type { Clock } from "./clock";
import { ApiError, SyntheticCode } from "./errors";
import { AccountLimits } from "./pacing";

/** Whether and when to try a failed request again. */

export interface RetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Budget of one call, attempts and waits together: no wait is started that would end past it. */
  deadlineMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  deadlineMs: 120_000,
};

const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
const TRANSIENT_TRANSPORT_CODES = new Set<string>([
  SyntheticCode.TIMEOUT,
  SyntheticCode.CONNECTION_FAILED,
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
 * 429 or a refused connection means the server did not act.
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
}

/**
 * Runs `attempt` until it succeeds, fails for good, runs out of attempts or would run past the
 * deadline, which each attempt is given so its own waits (pacing) respect it too; the last error
 * is thrown as is. A Retry-After sent by the server replaces the backoff.
 */
export async function withRetry<T>(
  attempt: (attemptNumber: number, deadline: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const { policy, clock, random } = options;
  const deadline = clock.now() + policy.deadlineMs;
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber, deadline);
    } catch (error) {
      if (!(error instanceof ApiError) || !shouldRetry(error) || attemptNumber >= policy.maxAttempts) throw error;
      const delay = error.retryAfterMs ?? WINDOW_CODES.get(error.code) ?? backoffDelay(attemptNumber, policy, random);
      if (clock.now() + delay > deadline) throw error;
      await clock.sleep(delay);
    }
  }
}
