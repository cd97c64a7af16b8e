import type { ServerResponse } from "node:http";

/** What a handler returns: the server serializes it (or drops it, under a fault). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Every success is {status: "success", response?}; `response` is omitted when there is none. */
export function success(response?: unknown): Reply {
  return { status: 200, body: response === undefined ? { status: "success" } : { status: "success", response } };
}

/** Admin answers are bare JSON (no envelope): they are for tests, not part of either API. */
export function bare(body: unknown, status = 200): Reply {
  return { status, body };
}

export function sendJson(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    ...reply.headers,
    ...extraHeaders,
  });
  res.end(payload);
}
