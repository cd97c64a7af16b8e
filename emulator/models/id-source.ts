import { derivedBase36, derivedHex, randomBase36, randomHex } from "../random";

/**
 * Random, as on the live service; under a fault seed, derived from the seed and `key`, so a replayed
 * run sends the same paths and bodies and meets the same faults.
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
