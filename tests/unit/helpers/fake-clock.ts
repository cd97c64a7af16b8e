import type { Clock } from "../../../provider/client/clock";

/**
 * A clock whose sleep returns at once and moves time forward; it records every wait. Scheduled
 * callbacks run when time (a sleep or `advance`) reaches them.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  private timers: Array<{ due: number; callback: () => void }> = [];

  constructor(private current = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.current;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.advance(ms);
  }

  advance(ms: number): void {
    this.current += ms;
    const due = this.timers.filter((timer) => timer.due <= this.current);
    this.timers = this.timers.filter((timer) => timer.due > this.current);
    for (const timer of due) timer.callback();
  }

  schedule(ms: number, callback: () => void): () => void {
    const timer = { due: this.current + ms, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
}
