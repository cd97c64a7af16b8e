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
 * What makes a request this request, whatever moment it arrives: method, concrete path, query,
 * what its body names, and its attempt. Several endpoints carry the resource they act on in a
 * JSON body (workspace links and members, an object's delete), so the body counts, as a digest.
 * An upload's multipart boundary is random per request: its file's content counts instead.
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

/**
 * A number in [0, 1) that depends only on its inputs: the seed, the fault (`faultKey`), the
 * request's identity and its occurrence (how many earlier requests of that identity were drawn
 * for since the seed was set, so a request repeated by a later run gets a fresh draw).
 */
export function seededDraw(seed: string, faultKey: string, identity: string, occurrence: number): number {
  const digest = createHash("sha256")
    .update([seed, faultKey, identity, String(occurrence)].join("\n"))
    .digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}
