import type { RunningEmulator } from "../../../emulator";
import type { Clock } from "../../../provider/client/clock";

/**
 * A clock whose sleep returns at once and moves time forward; it records every wait. Scheduled
 * callbacks run when time (a sleep or `advance`) reaches them.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  private timers: Array<{ due: number; callback: () => void }> = [];
  private nextSleepAction?: () => Promise<unknown>;

  constructor(private current = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.current;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    const action = this.nextSleepAction;
    this.nextSleepAction = undefined;
    await action?.();
    this.advance(ms);
  }

  /**
   * Runs `action` during the next sleep: the world changes while the code under test waits,
   * exactly then and not at a moment a race decides.
   */
  duringNextSleep(action: () => Promise<unknown>): void {
    this.nextSleepAction = action;
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

/**
 * A fake clock whose waits move the emulator's clock along, so the server sees the time pass that
 * the provider waited: its caches expire, its rate windows and invite codes run out.
 */
export class EmulatorLinkedClock extends FakeClock {
  constructor(
    private readonly emulator: RunningEmulator,
    start?: number,
  ) {
    super(start);
  }

  override async sleep(ms: number): Promise<void> {
    await super.sleep(ms);
    await this.emulator.admin.advanceClock(ms);
  }
}
