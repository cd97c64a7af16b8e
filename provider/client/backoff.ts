/** How long to wait before the next attempt. */

export interface BackoffPolicy {
  /** Ceiling of the first wait; it doubles with each attempt. */
  baseDelayMs: number;
  /** No single wait exceeds this. */
  maxDelayMs: number;
}

/**
 * Exponential backoff with full jitter: a uniform wait in [0, min(max, base * 2^(attempt-1))).
 * Full jitter spreads clients that failed together (AWS architecture blog, "Exponential Backoff
 * And Jitter"). `attempt` counts from 1 for the wait after the first failure.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After as milliseconds from `nowMs`: delta-seconds or an HTTP date (RFC 9110 10.2.3).
 * Undefined when absent or unreadable; a date in the past means "now" (0).
 */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // HTTP dates always end in GMT; checking it keeps Date.parse's leniency ("5.5" is a date to V8) out.
  const date = /GMT$/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
