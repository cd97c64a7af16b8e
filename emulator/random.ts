import { createHash, randomBytes } from "node:crypto";

/** Fresh identifiers for things created through the API (never used for seeded data). */
export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);
}

export function randomBase36(length: number): string {
  return base36Of(randomBytes(length));
}

function base36Of(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += (byte % 36).toString(36);
  return out;
}

/** A five-digit port, as the real service hands out for database endpoints. */
export function randomPort(): number {
  return 10_000 + (randomBytes(2).readUInt16BE(0) % 50_000);
}

export function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** From a string key, so generated data is the same for an entity and time bucket across runs, unstored. */
export function seededRandom(key: string): () => number {
  let state = createHash("sha256").update(key).digest().readUInt32LE(0);
  // mulberry32: small, fast and good enough for plausible-looking sample data.
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function seededInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** A hex string derived from a key: stable ids for data generated from seeds. */
export function derivedHex(key: string, length: number): string {
  return createHash("sha256").update(key).digest("hex").slice(0, length);
}

/** Up to 32 base-36 characters derived from a key, as randomBase36 makes them. */
export function derivedBase36(key: string, length: number): string {
  return base36Of(createHash("sha256").update(key).digest().subarray(0, length));
}
