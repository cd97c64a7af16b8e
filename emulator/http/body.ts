import type { IncomingMessage } from "node:http";
import { apiError, type EmulatorError } from "../errors";
import { arrived } from "./latency";

/** The client went away before its body arrived: nothing to answer, nothing worth reporting. */
export class ClientGoneError extends Error {
  constructor() {
    super("client disconnected before the request body arrived");
  }
}

/** JSON bodies of both APIs are small; anything above this is refused before it is buffered. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Whether a body follows the headers (chunked, or a non-zero Content-Length). */
export function declaresBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/** What became of a body read up to a limit: its bytes, too many of them, or a client gone first. */
type Collected = { kind: "body"; data: Buffer } | { kind: "too-large" } | { kind: "gone" };

/** Requests whose body outgrew its limit: what is left of it is not read, the answer closes the connection. */
const overLimit = new WeakSet<IncomingMessage>();

/** Bodies read before their handler asked (see readBodyEarly), waiting for its readBody. */
const readEarly = new WeakMap<IncomingMessage, Promise<Collected>>();

/** Refused before reading when Content-Length is over `limit`, or as soon as it grows past it. */
export async function readBody(req: IncomingMessage, limit: number, tooLarge: () => EmulatorError): Promise<Buffer> {
  const early = readEarly.get(req);
  readEarly.delete(req);
  const collected = await (early ?? collect(req, limit));
  if (collected.kind === "too-large" || (collected.kind === "body" && collected.data.length > limit)) throw tooLarge();
  if (collected.kind === "gone") throw new ClientGoneError();
  await arrived(req);
  return collected.data;
}

/** For a seeded fault draw before the handler; its readBody later gets the same outcome. */
export async function readBodyEarly(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const collecting = collect(req, limit);
  readEarly.set(req, collecting);
  const collected = await collecting;
  return collected.kind === "body" ? collected.data : undefined;
}

function collect(req: IncomingMessage, limit: number): Promise<Collected> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    overLimit.add(req);
    return Promise.resolve({ kind: "too-large" });
  }
  // A client that left before anyone listened (e.g. during a wait before the handler) already
  // had its request destroyed: its close event is gone and no other event will ever come.
  if (req.destroyed) return Promise.resolve({ kind: "gone" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        overLimit.add(req);
        cleanup();
        req.pause();
        resolve({ kind: "too-large" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ kind: "body", data: Buffer.concat(chunks, size) });
    };
    // "close" before "end" is a client gone mid-body; it also follows "aborted", which is
    // deprecated and always comes with it, so listening for "close" covers both.
    const onGone = () => {
      cleanup();
      resolve({ kind: "gone" });
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onGone);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onGone);
    req.on("close", onGone);
  });
}

/**
 * Reads and discards what is left of a body nobody read (a request refused on its headers: a bad
 * key, an unknown route, a full upload slot), so the client, still writing, gets to read the
 * answer instead of meeting a closed connection. A body over `limit` is not drained: true only
 * when the whole body is in.
 */
export async function drainBody(req: IncomingMessage, limit: number): Promise<boolean> {
  const early = readEarly.get(req);
  if (early) return (await early).kind === "body";
  if (!declaresBody(req) || req.complete) return true;
  if (overLimit.has(req) || req.destroyed || Number(req.headers["content-length"] ?? "0") > limit) return false;
  return new Promise((resolve) => {
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(false);
    };
    const finish = (drained: boolean) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onGone);
      if (!drained) req.pause();
      resolve(drained);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(false);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onGone);
    req.on("close", onGone);
  });
}

/** An empty body reads as {}, so a body-less PATCH reaches the endpoint's own "nothing to update" rule. */
export async function readJsonObject(
  req: IncomingMessage,
  contentType: "required" | "any" = "required",
): Promise<Record<string, unknown>> {
  const raw = await readBody(req, JSON_BODY_LIMIT_BYTES, () => apiError("PAYLOAD_TOO_LARGE"));
  if (raw.length === 0) return {};
  if (contentType === "required" && !isJsonContentType(req.headers["content-type"])) {
    throw apiError("INVALID_CONTENT_TYPE");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    throw apiError("INVALID_JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw apiError("INVALID_BODY");
  return parsed as Record<string, unknown>;
}

function isJsonContentType(header: string | undefined): boolean {
  const mediaType = (header ?? "").split(";")[0]!.trim().toLowerCase();
  return mediaType === "application/json" || mediaType.endsWith("+json");
}
