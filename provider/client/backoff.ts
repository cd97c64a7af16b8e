export interface BackoffPolicy {
  /** Ceiling of the first wait; it doubles with each attempt. */
  baseDelayMs: number;
  /** No single wait exceeds this. */
  maxDelayMs: number;
}

/** Full jitter spreads clients that failed together; `attempt` counts from 1. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After (RFC 9110 10.2.3) in ms from `nowMs`; undefined when unreadable, 0 for a past date. */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // HTTP dates always end in GMT; checking it keeps Date.parse's leniency ("5.5" is a date to V8) out.
  const date = /GMT$/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
