/**
 * Lets an admin call wait for a condition on emulator state (a request logged, the faults used
 * up) so tests await the server's own signal instead of polling it on a timer.
 */
export class Changes {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** True once `condition` holds (checked now and after every change); false after `timeoutMs`. */
  until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (met: boolean) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(met);
      };
      const check = () => {
        if (condition()) finish(true);
      };
      // The bound is a safety net for a broken test, not a timing rule; it never holds the process.
      const timer = setTimeout(() => finish(false), timeoutMs).unref();
      this.listeners.add(check);
    });
  }
}
