import { derivedBase36, derivedHex, randomBase36, randomHex } from "../random";

/**
 * The identifiers and codes the models hand out. Random, as on the live service; under a fault
 * seed, derived from the seed and what names the new thing (`key`: its kind, account and name),
 * with a count of earlier ones of that key. A replayed run then sends the same paths and bodies,
 * so it meets the same faults (whose draws hash the request), whatever order its creates arrived in.
 */
export class IdSource {
  private seed: string | undefined;
  private readonly counts = new Map<string, number>();

  /** Undefined: random again. */
  reseed(seed: string | undefined): void {
    this.seed = seed;
    this.counts.clear();
  }

  hex(length: number, key: string): string {
    return this.seed === undefined ? randomHex(length) : derivedHex(this.nextKey(key), length);
  }

  base36(length: number, key: string): string {
    return this.seed === undefined ? randomBase36(length) : derivedBase36(this.nextKey(key), length);
  }

  private nextKey(key: string): string {
    const count = this.counts.get(key) ?? 0;
    this.counts.set(key, count + 1);
    return `${this.seed}\n${key}\n${count}`;
  }
}
