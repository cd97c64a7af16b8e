import type { RequestCounters, RequestLogEntry } from "../admin-types";
import { Changes } from "./changes";

/** Enough history for any test; a long benchmark only keeps the most recent entries. */
const MAX_ENTRIES = 10_000;

/**
 * What reached the API: method, route template, path (never the query, headers or body, so no
 * key, password or invite code can end up here), status and any fault applied.
 */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private counts = new Map<string, number>();
  private readonly changes = new Changes();

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    this.counts.set(entry.route, (this.counts.get(entry.route) ?? 0) + 1);
    this.changes.notify();
  }

  /**
   * True once `count` requests of `route` are logged. A request is logged when it is over (even
   * one whose client left), so this is the signal that the server is done with it.
   */
  waitFor(route: string, count: number, timeoutMs: number): Promise<boolean> {
    return this.changes.until(() => (this.counts.get(route) ?? 0) >= count, timeoutMs);
  }

  list(): RequestLogEntry[] {
    return [...this.entries];
  }

  counters(): RequestCounters {
    return Object.fromEntries(this.counts);
  }

  clear(): void {
    this.entries = [];
    this.counts.clear();
  }
}
