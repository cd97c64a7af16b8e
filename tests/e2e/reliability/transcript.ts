/**
 * Every command's complete output with the engine's most verbose logging, kept for the secrets
 * scan: stdout and stderr of a success, the whole error (its message carries both) of a failure.
 */
export const VERBOSE = { logVerbosity: 9, logToStdErr: true, debug: true } as const;

export class Transcript {
  private readonly entries: Record<string, string> = {};
  private count = 0;

  /** Runs the command, records what it printed, and passes its result or error on. */
  async record<T extends { stdout: string; stderr: string }>(label: string, command: () => Promise<T>): Promise<T> {
    const key = `${++this.count} ${label}`;
    try {
      const result = await command();
      this.entries[key] = `${result.stdout}\n${result.stderr}`;
      return result;
    } catch (err) {
      this.entries[key] = `${String(err)}\n${(err as Error).stack ?? ""}`;
      throw err;
    }
  }

  texts(): Record<string, string> {
    return { ...this.entries };
  }

  /** Everything recorded since `from` (a count), joined: what one run printed. */
  since(from: number): string {
    return Object.entries(this.entries)
      .filter(([key]) => Number(key.split(" ")[0]) > from)
      .map(([, text]) => text)
      .join("\n");
  }

  get length(): number {
    return this.count;
  }
}
