import { type BackoffPolicy, backoffDelay } from "./backoff";
import type { Clock } from "./clock";
import { ApiError, SyntheticCode } from "./errors";
import { AccountLimits } from "./pacing";

export interface RetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included; refusals (`isRefusal`) are not counted. */
  maxAttempts: number;
  /**
   * Ceiling of the backoff after refusals that say no wait: another client of the account holds
   * what was refused (an upload slot), and it frees within seconds, not the outage's 20.
   */
  refusalMaxDelayMs: number;
  /** Budget of one call, attempts and waits together: no wait is started that would end past it. */
  deadlineMs: number;
  /** Attempts when the connection is refused: a preview against a stopped server fails in about a second. */
  refusedAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  refusalMaxDelayMs: 5_000,
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
 * 429s with a documented window but no Retry-After: one whole window is enough, where a jittered
 * backoff could fall short of it several times over.
 */
const WINDOW_CODES = new Map<string, number>([
  ["KEEP_CALM", AccountLimits.APP_SNAPSHOT_INTERVAL_MS],
  ["RESTORE_IN_PROGRESS", AccountLimits.RESTORE_INTERVAL_MS],
]);

/**
 * Transient, and trying again cannot apply it twice: a request that may have committed goes again
 * only when its settle read proves it did not (docs/reliability.md, "Lost answers").
 */
export function shouldRetry(error: ApiError): boolean {
  if (error.mayHaveCommitted) return false;
  // The API notes give these codes without a status.
  if (WINDOW_CODES.has(error.code)) return true;
  if (error.status === undefined) return TRANSIENT_TRANSPORT_CODES.has(error.code);
  // A 500 of a repeatable request is as likely a passing fault as a 502.
  if (error.status === 500) return true;
  return TRANSIENT_STATUSES.has(error.status) && !QUOTA_CODES.has(error.code);
}

/**
 * A 429 other than a quota, or a window code: the server refused the request before doing
 * anything, because of the account's limits. Other clients of the account (other stacks, other
 * processes) spend those limits too, so how many refusals come depends on them, not on this
 * request: a refusal is waited out within the call's deadline and never counts as an attempt.
 */
export function isRefusal(error: ApiError): boolean {
  if (error.mayHaveCommitted || QUOTA_CODES.has(error.code)) return false;
  return error.status === 429 || WINDOW_CODES.has(error.code);
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
   * What the lost attempt did, or undefined when nothing shows. A non-ApiError thrown here ends the
   * call as it is (say, several candidates only the user can choose between).
   */
  read(lost: ApiError): Promise<F | undefined>;
  /**
   * Nothing shown settles it whatever the lost answer was, so it is sent again: sending again cannot
   * do it twice (a link exists once, a code adds one person once), or the read sees every attempt
   * the server took (an upload's listing, read once the server's list cache has passed).
   */
  conclusive?: boolean;
}

/** What a settle read found the lost attempt did: the call's result instead of an answer. */
export class Found<F> {
  constructor(readonly value: F) {}
}

/** A call's result: the answer, or what a settle read found (only when the call can settle). */
export type Settled<T, F> = [F] extends [never] ? T : T | Found<F>;

/**
 * With a read that then shows nothing, these prove the request was not done: a 503 says the
 * service did not take it, a connection broken with no answer at all ended it before any work
 * showed. After a 500, 502, 504, a timeout or an unreadable answer the work may be under way, and
 * a late first one could make it twice (docs/reliability.md, "Lost answers").
 */
export function provesNotDone(error: ApiError): boolean {
  return error.status === 503 || (error.status === undefined && error.code === SyntheticCode.CONNECTION_RESET);
}

/**
 * The one place a platform API request is sent again. Each attempt gets the deadline so its own
 * waits (pacing) respect it; with `settle`, a lost answer is settled by reading first.
 */
export async function withRetry<T, F = never>(
  attempt: (attemptNumber: number, deadline: number) => Promise<T>,
  options: RetryOptions<F>,
): Promise<Settled<T, F>> {
  const { policy, clock, random, settle } = options;
  const deadline = clock.now() + policy.deadlineMs;
  let lostBefore = false;
  let refusals = 0;
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
        if (!(settle.conclusive || provesNotDone(error))) throw error;
      } else if (!shouldRetry(error)) {
        throw error;
      }
      if (isRefusal(error)) refusals++;
      else if (attemptNumber - refusals >= attemptsFor(error, policy)) throw error;
      const delay = isRefusal(error)
        ? refusalDelay(error, refusals, policy, random)
        : (error.retryAfterMs ?? backoffDelay(attemptNumber - refusals, policy, random));
      if (clock.now() + delay > deadline) throw error;
      await clock.sleep(delay);
    }
  }
}

/**
 * The server's wait (Retry-After, else the code's documented window) and a jitter of up to the
 * base delay, so clients refused together do not all come back in the same instant and meet the
 * same refusal; without either, a backoff that stops at the refusal ceiling. `refusals` counts
 * this call's refusals so far, this one included.
 */
function refusalDelay(error: ApiError, refusals: number, policy: RetryPolicy, random: () => number): number {
  const serverWait = error.retryAfterMs ?? WINDOW_CODES.get(error.code);
  if (serverWait !== undefined) return serverWait + Math.floor(random() * policy.baseDelayMs);
  return backoffDelay(refusals, { baseDelayMs: policy.baseDelayMs, maxDelayMs: policy.refusalMaxDelayMs }, random);
}

function attemptsFor(error: ApiError, policy: RetryPolicy): number {
  return error.code === SyntheticCode.CONNECTION_REFUSED
    ? Math.min(policy.refusedAttempts, policy.maxAttempts)
    : policy.maxAttempts;
}

/** A failed read settles nothing: the attempt's error, which says it may have taken effect, is reported. */
async function readAfter<F>(settle: Settle<F>, lost: ApiError): Promise<F | undefined> {
  try {
    return await settle.read(lost);
  } catch (error) {
    throw error instanceof ApiError ? lost : error;
  }
}
