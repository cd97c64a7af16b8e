/** Every time-dependent rule reads this, not Date.now(), so tests move time through the admin surface. */
export interface Clock {
  now(): number;
}

/** Real time plus an offset the admin surface sets: flowing for demos, moved by tests. */
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
