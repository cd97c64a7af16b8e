import type { Clock } from "../../../provider/client/clock";

/** A clock whose sleep returns at once and moves time forward; it records every wait. */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];

  constructor(private current = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.current;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.current += ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
