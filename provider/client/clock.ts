/**
 * Time as the client sees it. Retries, Retry-After and pacing all read the time and wait through
 * this interface, so tests inject a fake one and run backoff schedules in milliseconds (the
 * habit of Render's client, which takes its sleep function as a parameter).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
