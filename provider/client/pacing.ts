import type { Clock } from "./clock";
import { entryOf } from "../map-entry";

/**
 * Pacing for the documented limits, so retries are not spent on avoidable 429s. A gate's wait
 * counts against the call's deadline, so it fails (DeadlineExceeded) rather than queue without limit.
 */

/**
 * Called once the attempt is over; `sent` is false when it certainly never left the process,
 * `refused` true when the server refused it over the account's limits (retry.ts, isRefusal).
 */
export type Release = (sent: boolean, refused?: boolean) => void;
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
   * Reserved before waiting, so concurrent callers queue one interval apart. A slot certainly not
   * used goes back only while nobody reserved behind it (waking a sleeper early is not worth it).
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

/**
 * At most `max` holders at once; the others wait in arrival order, each until its deadline. The
 * server's limit is the account's, shared with every other client of it: when the server refuses
 * a holder's request, others hold slots there, so the allowance halves (down to one), and it grows
 * back by one after as many requests in a row as it allows go through unrefused.
 */
export class ConcurrencyLimit {
  private holders = 0;
  private allowance: number;
  private unrefused = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly max: number,
    private readonly clock: Clock,
  ) {
    this.allowance = max;
  }

  /** How many may hold a slot now: `max` until the server refuses one. */
  get allowed(): number {
    return this.allowance;
  }

  readonly gate: Gate = async (deadline) => {
    if (this.holders < this.allowance && this.queue.length === 0) this.holders++;
    else await this.waitForSlot(deadline);
    let released = false;
    return (_sent, refused = false) => {
      if (released) return;
      released = true;
      this.learn(refused);
      this.holders--;
      this.admitWaiters();
    };
  };

  private learn(refused: boolean): void {
    if (refused) {
      this.allowance = Math.max(1, Math.floor(this.allowance / 2));
      this.unrefused = 0;
    } else if (this.allowance < this.max && ++this.unrefused >= this.allowance) {
      this.allowance++;
      this.unrefused = 0;
    }
  }

  /** A waiter takes a free slot directly, in arrival order, so a newcomer cannot overtake it. */
  private admitWaiters(): void {
    while (this.holders < this.allowance && this.queue.length > 0) {
      this.holders++;
      this.queue.shift()!();
    }
  }

  private waitForSlot(deadline: number): Promise<void> {
    const refusal = () => new DeadlineExceeded(`all ${this.allowance} slots stayed taken until the call's deadline`);
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

/** The limits of docs/service-limits.md, for one account. */
export class AccountLimits {
  static readonly ANALYTICS_INTERVAL_MS = 10_000;
  static readonly APP_SNAPSHOT_INTERVAL_MS = 5_000;
  static readonly RESTORE_INTERVAL_MS = 60_000;
  static readonly MAX_UPLOADS_IN_FLIGHT = 4;
  /** Added to the intervals the server enforces: it measures arrivals, not our starts. */
  static readonly ARRIVAL_MARGIN_MS = 500;

  private readonly pacer: IntervalPacer;
  private readonly uploads: ConcurrencyLimit;

  constructor(clock: Clock) {
    this.pacer = new IntervalPacer(clock);
    this.uploads = new ConcurrencyLimit(AccountLimits.MAX_UPLOADS_IN_FLIGHT, clock);
  }

  /** One uncached analytics request per 10 s; the server caches per application and range. */
  analytics(appId: string, range: string): Gate {
    return this.pacer.gate(`analytics:${appId}:${range}`, AccountLimits.ANALYTICS_INTERVAL_MS);
  }

  /** One application snapshot per 5 s; the reference does not say per application, so per account. */
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
 * Per account, since resources running in parallel may each build a client; per clock too, so a
 * test's fake clock never shares state with real time.
 */
const sharedLimits = new WeakMap<Clock, Map<string, AccountLimits>>();

export function limitsFor(accountKey: string, clock: Clock): AccountLimits {
  const byAccount = entryOf(sharedLimits, clock, () => new Map<string, AccountLimits>());
  return entryOf(byAccount, accountKey, () => new AccountLimits(clock));
}
