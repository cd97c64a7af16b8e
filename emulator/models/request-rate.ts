import type { Clock } from "../clock";
import { rateLimitExceeded } from "../errors";

/**
 * An account-wide request rate: at most `requests` admitted per `windowMs`, counted per account
 * over every connection and process using its key. The reference publishes no such limit for the
 * routes beyond snapshots and restores ("not shown"), so the emulator has none unless started
 * with one (emulator/README.md, "Choices").
 */
export interface RequestRateLimit {
  requests: number;
  windowMs: number;
}

/** Sliding window per account: a request is admitted while fewer than `requests` were in the last `windowMs`. */
export class RequestRate {
  /** Account id -> the times of its admitted requests still inside the window, oldest first. */
  private readonly admitted = new Map<string, number[]>();

  constructor(
    private readonly limit: RequestRateLimit | undefined,
    private readonly clock: Clock,
  ) {}

  /** Counts the request, or refuses it with 429 RATE_LIMIT_EXCEEDED and a Retry-After in whole seconds. */
  admit(accountId: string): void {
    if (this.limit === undefined) return;
    const { requests, windowMs } = this.limit;
    const now = this.clock.now();
    const recent = (this.admitted.get(accountId) ?? []).filter((at) => at > now - windowMs && at <= now);
    this.admitted.set(accountId, recent);
    if (recent.length >= requests) {
      const freesInMs = recent[0]! + windowMs - now;
      throw rateLimitExceeded(Math.max(1, Math.ceil(freesInMs / 1000)));
    }
    recent.push(now);
  }
}

/** "50/1s", "600/60s": requests per window, as the CLI takes it. */
export function parseRequestRate(text: string): RequestRateLimit | undefined {
  const match = /^(\d{1,6})\/(\d{1,5})s$/.exec(text.trim());
  if (!match) return undefined;
  const requests = Number(match[1]);
  const windowMs = Number(match[2]) * 1000;
  return requests > 0 && windowMs > 0 ? { requests, windowMs } : undefined;
}
