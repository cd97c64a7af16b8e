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
  return {
    status: response.status,
    body: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get("content-type"),
  };
}

/** A replacement as both paths make it: a new object holding `next` at a new URL, the old one gone from the CDN. */
export async function expectReplaced(
  before: Record<string, any>,
  after: Record<string, any>,
  next: string,
): Promise<void> {
  expect(after.id).not.toBe(before.id);
  expect(after.url).not.toBe(before.url);
  expect((await fetchBytes(after.url)).body.toString()).toBe(next);
  expect((await fetchBytes(before.url)).status).toBe(404);
}

/**
 * The content change both paths test: assets/one.txt gets new content, and the preview and the up
 * each replace that one object of the stack's four (the up with the emulator's request log
 * cleared before it). Returns the new content.
 */
export async function replaceOneByNewContent(
  stack: { preview(): Promise<{ changeSummary: unknown }>; up(): Promise<{ summary: { resourceChanges?: unknown } }> },
  clearRequests: () => Promise<void>,
  write: (relative: string, content: string) => void,
): Promise<string> {
  const next = contentOf("one-v2", 2100);
  write("assets/one.txt", next);
  expect((await stack.preview()).changeSummary).toEqual({ replace: 1, same: 3 });
  await clearRequests();
  expect((await stack.up()).summary.resourceChanges).toEqual({ replace: 1, same: 3 });
  return next;
}
