import type { Clock } from "./clock";

/**
 * Client-side pacing for the documented limits, so the provider does not spend its retries on
 * 429s it could have avoided. Each attempt passes a gate first; the gate waits exactly as long as
 * the limit requires (no fixed sleeps) and hands back a release for when the attempt is over.
 */

export type Release = () => void;
export type Gate = () => Promise<Release>;

const nothingToRelease: Release = () => undefined;

/** At most one start per interval under each key. */
export class IntervalPacer {
  private readonly nextStart = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  gate(key: string, intervalMs: number): Gate {
    return async () => {
      await this.wait(key, intervalMs);
      return nothingToRelease;
    };
  }

  /** The slot is reserved before waiting, so concurrent callers queue one interval apart. */
  async wait(key: string, intervalMs: number): Promise<void> {
    const now = this.clock.now();
    const start = Math.max(now, this.nextStart.get(key) ?? now);
    this.nextStart.set(key, start + intervalMs);
    if (start > now) await this.clock.sleep(start - now);
  }
}

/** At most `max` holders at once; the others wait in arrival order. */
export class ConcurrencyLimit {
  private holders = 0;
  private readonly queue: Array<() => void> = [];

  constructor(readonly max: number) {}

  readonly gate: Gate = async () => {
    if (this.holders >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // A waiter inherits the slot directly, so a newcomer cannot overtake it.
      if (next) next();
      else this.holders--;
    };
  };
}

/** The limits of api-spec.md section 8 and real-api-notes.md, for one account. */
export class AccountLimits {
  static readonly ANALYTICS_INTERVAL_MS = 10_000;
  static readonly APP_SNAPSHOT_INTERVAL_MS = 5_000;
  static readonly RESTORE_INTERVAL_MS = 60_000;
  static readonly MAX_UPLOADS_IN_FLIGHT = 4;

  private readonly pacer: IntervalPacer;
  private readonly uploads = new ConcurrencyLimit(AccountLimits.MAX_UPLOADS_IN_FLIGHT);

  constructor(clock: Clock) {
    this.pacer = new IntervalPacer(clock);
  }

  /** One uncached analytics request per 10 s per application. */
  analytics(appId: string): Gate {
    return this.pacer.gate(`analytics:${appId}`, AccountLimits.ANALYTICS_INTERVAL_MS);
  }

  /** One application snapshot per 5 s; the spec does not say per application, so per account. */
  appSnapshot(): Gate {
    return this.pacer.gate("app-snapshot", AccountLimits.APP_SNAPSHOT_INTERVAL_MS);
  }

  /** One restore request per 60 s per database. */
  restore(databaseId: string): Gate {
    return this.pacer.gate(`restore:${databaseId}`, AccountLimits.RESTORE_INTERVAL_MS);
  }

  /** At most 4 uploads in flight per account. */
  upload(): Gate {
    return this.uploads.gate;
  }
}

/**
 * Limits are per account, not per client object: resources of one program run in parallel in one
 * provider process and may each build a client. Sharing is per clock as well, so a test with a
 * fake clock never shares state with real time.
 */
const sharedLimits = new WeakMap<Clock, Map<string, AccountLimits>>();

export function limitsFor(accountKey: string, clock: Clock): AccountLimits {
  let byAccount = sharedLimits.get(clock);
  if (!byAccount) sharedLimits.set(clock, (byAccount = new Map()));
  let limits = byAccount.get(accountKey);
  if (!limits) byAccount.set(accountKey, (limits = new AccountLimits(clock)));
  return limits;
}
