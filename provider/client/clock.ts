/** Every wait goes through this, so tests inject a fake clock and run backoff schedules in milliseconds. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Cancellable, for deadlines on waits of unknown end: a sleep raced against them would stay pending. */
  schedule(ms: number, callback: () => void): () => void;
}

/** setTimeout fires at once beyond this (about 24.8 days); deadlines are minutes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  schedule: (ms, callback) => {
    const handle = setTimeout(callback, Math.min(ms, MAX_TIMER_MS));
    return () => clearTimeout(handle);
  },
};
