import { createHash } from "node:crypto";

/** Contents for blob objects and what the emulator's CDN serves back, shared by the BlobObject tests of both paths. */

/** Deterministic text of exactly `size` bytes, different for each label. */
export function contentOf(label: string, size: number): string {
  return `${label}:`.padEnd(size, `${label}-0123456789abcdef\n`).slice(0, size);
}

export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

export async function fetchBytes(url: string): Promise<{ status: number; body: Buffer; type: string | null }> {
  const response = await fetch(url);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()), type: response.headers.get("content-type") };
}
