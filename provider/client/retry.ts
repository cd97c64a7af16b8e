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
 * its settle read (Settle) proves it has not taken effect.
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

export interface RetryOptions<F = never> {
  policy: RetryPolicy;
  clock: Clock;
  /** Uniform in [0, 1); Math.random outside tests. */
  random: () => number;
  settle?: Settle<F>;
}

/**
 * How a request that cannot simply be sent again (a POST) is settled when an attempt's answer is
 * lost (mayHaveCommitted): the service is read, and what it shows decides.
 */
export interface Settle<F> {
  /**
   * What the lost attempt did, as the service shows it (the call then ends with it, wrapped in
   * Found), or undefined when nothing shows. An ApiError thrown here (the read failed) settles
   * nothing: the attempt's error is the one reported; any other error ends the call as it is
   * (say, several candidates that only the user can choose between).
   */
  read(lost: ApiError): Promise<F | undefined>;
  /**
   * Sending again cannot do it twice (a link exists once, an invite code adds one person once):
   * nothing shown then means send again, whatever the lost answer was. Otherwise only an answer
   * that says the service refused the request (see provesNotDone) is sent again.
   */
  onceOnly?: boolean;
}

/** What a settle read found the lost attempt did: the call's result instead of an answer. */
export class Found<F> {
  constructor(readonly value: F) {}
}

/** A call's result: the answer, or what a settle read found (only when the call can settle). */
export type Settled<T, F> = [F] extends [never] ? T : T | Found<F>;

/**
 * A 503 says the service is unavailable: it did not take the request, unless the read that follows
 * shows otherwise (a listing is the proof; real-api-notes.md). A 500, 502 or 504 may come after the
 * work was done or while it is still under way, and a broken connection tells nothing: a request
 * that may create something is never sent again after those, since a late first one would make it
 * twice. (A 429 is never done: it is retried as any refusal, settle or not.)
 */
export function provesNotDone(error: ApiError): boolean {
  return error.status === 503;
}

/**
 * Runs `attempt` until it succeeds, fails for good, runs out of attempts or would run past the
 * deadline, which each attempt is given so its own waits (pacing) respect it too; the last error
 * is thrown as is. A Retry-After sent by the server replaces the backoff. With `settle`, an attempt
 * whose answer is lost is settled by reading: what it shows ends the call (Found); when nothing
 * shows and the lost answer proves nothing was done (or the request is once-only), it is sent again
 * after the same backoff, within the same attempts and deadline; otherwise its error is thrown,
 * marked nothingShown. This is the one place a platform API request is sent again (a lost upload
 * is settled by the blob listing instead: resources/blob-object/upload.ts).
 */
export async function withRetry<T, F = never>(
  attempt: (attemptNumber: number, deadline: number) => Promise<T>,
  options: RetryOptions<F>,
): Promise<Settled<T, F>> {
  const { policy, clock, random, settle } = options;
  const deadline = clock.now() + policy.deadlineMs;
  let lostBefore = false;
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return (await attempt(attemptNumber, deadline)) as Settled<T, F>;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      error.afterLostAttempt = lostBefore;
      lostBefore ||= error.outcomeUnknown;
      if (error.mayHaveCommitted && settle !== undefined) {
        const found = await readAfter(settle, error);
        if (found !== undefined) return new Found(found) as Settled<T, F>;
        error.nothingShown = true;
        if (!(settle.onceOnly || provesNotDone(error))) throw error;
      } else if (!shouldRetry(error)) {
        throw error;
      }
      if (attemptNumber >= attemptsFor(error, policy)) throw error;
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
async function readAfter<F>(settle: Settle<F>, lost: ApiError): Promise<F | undefined> {
  try {
    return await settle.read(lost);
  } catch (error) {
    throw error instanceof ApiError ? lost : error;
  }
}
