import { stableJson } from "../stable-json";

/**
 * Promises shared by key for the life of the process: the same read twice is one request, which
 * keeps programs inside the API's limits. A failed promise leaves the memo, to be tried again.
 */
export class Memo {
  private readonly promises = new Map<string, Promise<unknown>>();

  get<T>(key: string, task: () => Promise<T>): Promise<T> {
    const known = this.promises.get(key) as Promise<T> | undefined;
    if (known) return known;
    const promise = task();
    this.promises.set(key, promise);
    promise.catch(() => this.promises.delete(key));
    return promise;
  }
}

/** A key that does not depend on the order of properties, and ignores undefined ones. */
export function memoKey(name: string, args: object): string {
  return `${name} ${stableJson(args)}`;
}
