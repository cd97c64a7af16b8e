import { stableJson } from "../stable-json";

/**
 * Promises shared by key for the life of the process. A program that reads the same thing twice
 * (two `getApp` calls, `getApps` and `getAccount`, two analytics reads of one app) makes one
 * request; that is what keeps a program inside the API's limits (analytics: one uncached answer
 * per 10 s per app). A promise that fails leaves the memo, so a later call tries again.
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
