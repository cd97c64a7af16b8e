/**
 * Time as the client sees it. Retries, Retry-After and pacing all read the time and wait through
 * this interface, so tests inject a fake one and run backoff schedules in milliseconds (the
 * habit of Render's client, which takes its sleep function as a parameter).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * Calls `callback` once `ms` have passed unless the returned function cancels it first. For
   * deadlines on waits whose end nobody knows (an upload queued for a slot): a sleep raced
   * against the slot would stay pending after the slot came.
   */
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
