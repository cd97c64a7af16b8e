/** Dates in results are ISO 8601 strings; these order them. */

/** Milliseconds; an unparseable date sorts as the oldest rather than throwing: it is still data. */
export function time(date: string): number {
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? Number.MIN_SAFE_INTEGER : ms;
}

/** A stable sort, most recent first. */
export function newestFirst<T>(items: readonly T[], dateOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => time(dateOf(b)) - time(dateOf(a)));
}
