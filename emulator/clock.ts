/**
 * The emulator's notion of "now". Every time-dependent rule (caches, invite codes, blob expiry,
 * rate windows, seeded dates) reads this clock instead of Date.now(), so tests can move time
 * forward through the admin surface instead of sleeping.
 */
export interface Clock {
  now(): number;
}

/**
 * Real time plus an adjustable offset: time keeps flowing naturally for demos, while tests can
 * jump ahead (advance) or pin a starting point (set). The offset only ever changes through the
 * admin surface.
 */
export class AdjustableClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly realNow: () => number = Date.now) {}

  now(): number {
    return this.realNow() + this.offsetMs;
  }

  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }

  set(epochMs: number): number {
    this.offsetMs = epochMs - this.realNow();
    return this.now();
  }

  /** Back to real time, used by reset so each test starts from the same footing. */
  restore(): void {
    this.offsetMs = 0;
  }
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
