import type { Clock } from "./clock";
import { entryOf } from "../map-entry";

/**
 * Client-side pacing for the documented limits, so the provider does not spend its retries on
 * 429s it could have avoided. Each attempt passes a gate first; the gate waits exactly as long as
 * the limit requires (no fixed sleeps) and hands back a release for when the attempt is over.
 * Gate waits count against the call's deadline like backoff sleeps do: a wait that would pass it
 * fails with DeadlineExceeded instead of queueing without limit.
 */

/** Called once the attempt is over; `sent` is false when it certainly never left the process. */
export type Release = (sent: boolean) => void;
/** `deadline` (epoch ms): the attempt must not start after it. */
export type Gate = (deadline: number) => Promise<Release>;

/** The gate could not let the attempt start before the call's deadline; nothing was sent. */
export class DeadlineExceeded extends Error {
  override readonly name = "DeadlineExceeded";
}

/** At most one start per interval under each key. */
export class IntervalPacer {
  /** Earliest start of the next attempt under each key. */
  private readonly nextStart = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  gate(key: string, intervalMs: number): Gate {
    return (deadline) => this.wait(key, intervalMs, deadline);
  }

  /**
   * The slot is reserved before waiting, so concurrent callers queue one interval apart. An
   * attempt that was certainly not sent gives its slot back, so its own retry need not wait a
   * whole interval; but only while nobody has reserved behind it: a later caller keeps the turn
   * it was given, since it is already asleep and waking it early would take cancellable sleeps
   * for a gain of one interval.
   */
  async wait(key: string, intervalMs: number, deadline: number): Promise<Release> {
    const now = this.clock.now();
    const previous = this.nextStart.get(key);
    const start = Math.max(now, previous ?? now);
    if (start > deadline) {
      throw new DeadlineExceeded(
        `the pacing of one request per ${intervalMs} ms allows the next one in ${start - now} ms, past the call's deadline`,
      );
    }
    const reserved = start + intervalMs;
    this.nextStart.set(key, reserved);
    if (start > now) await this.clock.sleep(start - now);
    return (sent) => {
      if (sent || this.nextStart.get(key) !== reserved) return;
      if (previous === undefined) this.nextStart.delete(key);
      else this.nextStart.set(key, previous);
    };
  }
}

/** At most `max` holders at once; the others wait in arrival order, each until its deadline. */
export class ConcurrencyLimit {
  private holders = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly max: number,
    private readonly clock: Clock,
  ) {}

  readonly gate: Gate = async (deadline) => {
    if (this.holders < this.max) this.holders++;
    else await this.waitForSlot(deadline);
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

  private waitForSlot(deadline: number): Promise<void> {
    const refusal = () => new DeadlineExceeded(`all ${this.max} slots stayed taken until the call's deadline`);
    const waitMs = deadline - this.clock.now();
    if (waitMs <= 0) return Promise.reject(refusal());
    return new Promise((resolve, reject) => {
      const admit = () => {
        cancelTimer();
        resolve();
      };
      const cancelTimer = this.clock.schedule(waitMs, () => {
        this.queue.splice(this.queue.indexOf(admit), 1);
        reject(refusal());
      });
      this.queue.push(admit);
    });
  }
}

/** The limits of api-spec.md section 8 and real-api-notes.md, for one account. */
export class AccountLimits {
  static readonly ANALYTICS_INTERVAL_MS = 10_000;
  static readonly APP_SNAPSHOT_INTERVAL_MS = 5_000;
  static readonly RESTORE_INTERVAL_MS = 60_000;
  static readonly MAX_UPLOADS_IN_FLIGHT = 4;
  /**
   * Added to the intervals whose breach the server refuses (snapshot, restore): it measures them
   * between arrivals, and a request that took longer to arrive than the next one would otherwise
   * make two starts exactly one interval apart land closer than that.
   */
  static readonly ARRIVAL_MARGIN_MS = 500;

  private readonly pacer: IntervalPacer;
  private readonly uploads: ConcurrencyLimit;

  constructor(clock: Clock) {
    this.pacer = new IntervalPacer(clock);
    this.uploads = new ConcurrencyLimit(AccountLimits.MAX_UPLOADS_IN_FLIGHT, clock);
  }

  /**
   * One uncached analytics request per 10 s. The server caches per application and range, so a
   * `weekly` read right after a `daily` one is not held back.
   */
  analytics(appId: string, range: string): Gate {
    return this.pacer.gate(`analytics:${appId}:${range}`, AccountLimits.ANALYTICS_INTERVAL_MS);
  }

  /** One application snapshot per 5 s; the spec does not say per application, so per account. */
  appSnapshot(): Gate {
    return this.pacer.gate("app-snapshot", AccountLimits.APP_SNAPSHOT_INTERVAL_MS + AccountLimits.ARRIVAL_MARGIN_MS);
  }

  /** One restore request per 60 s per database. */
  restore(databaseId: string): Gate {
    return this.pacer.gate(
      `restore:${databaseId}`,
      AccountLimits.RESTORE_INTERVAL_MS + AccountLimits.ARRIVAL_MARGIN_MS,
    );
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
  const byAccount = entryOf(sharedLimits, clock, () => new Map<string, AccountLimits>());
  return entryOf(byAccount, accountKey, () => new AccountLimits(clock));
}
