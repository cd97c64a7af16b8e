import { createHash } from "node:crypto";
import { sha256Hex } from "../random";
import { boundaryOf, parseMultipart } from "./multipart";

/** What a seeded draw knows of a request. */
export interface DrawnRequest {
  method: string;
  /** The concrete path, ids included. */
  path: string;
  query: URLSearchParams;
  /** From the client's `X-Attempt` header; absent means the first attempt. */
  attempt?: number;
  /** The body, when the server read it before deciding (see FaultRegistry.wantsBody). */
  body?: Buffer;
  contentType?: string;
}

/**
 * The body counts, as a digest, since several endpoints name their resource there; for an upload
 * the file's content does, its multipart boundary being random.
 */
export function requestIdentity(request: DrawnRequest): string {
  const query = new URLSearchParams([...request.query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return [
    `${request.method} ${request.path}?${query}`,
    `attempt ${request.attempt ?? 1}`,
    `body ${bodyDigest(request)}`,
  ].join("\n");
}

function bodyDigest({ body, contentType }: DrawnRequest): string {
  if (!body || body.length === 0) return "none";
  const boundary = boundaryOf(contentType);
  const file = boundary ? parseMultipart(body, boundary)?.find((part) => part.name === "file") : undefined;
  return file ? `file ${sha256Hex(file.data)}` : sha256Hex(body);
}

/** In [0, 1), from its inputs alone; `occurrence` gives a request repeated by a later run a fresh draw. */
export function seededDraw(seed: string, faultKey: string, identity: string, occurrence: number): number {
  const digest = createHash("sha256")
    .update([seed, faultKey, identity, String(occurrence)].join("\n"))
    .digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}
