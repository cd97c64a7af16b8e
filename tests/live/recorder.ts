import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Created } from "../../scripts/live/report";
import type { RequestLog, ServedRequest } from "../e2e/harness/service-suite";

/** Second segments of /v2 paths that name a route, not an object: every other one is an id. */
const NAMED_SEGMENTS = new Set(["me", "snapshots", "members", "applications", "leave", "status"]);

/** "METHOD template" of a request, as the emulator's log names routes: `PATCH /v2/databases/:id`. */
export function routeOf(method: string, path: string): string {
  const segments = path.split("/");
  // ["", "v2", "databases", "<id>", ...]
  if (segments[1] === "v2" && segments.length > 3 && !NAMED_SEGMENTS.has(segments[3])) segments[3] = ":id";
  return `${method} ${segments.join("/")}`;
}

/** Headers that describe one connection, not the request: never forwarded. */
const HOP_HEADERS = ["host", "connection", "content-length", "transfer-encoding", "keep-alive"];

/** A proxy in front of one API, started by RequestRecorder.proxy. */
export interface RecordingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * Proxies in front of the APIs (the platform's and the blob's) that forward every request as it is
 * and record its method, route, path and status (never a header, a query or a body: they may hold
 * the key or a secret) and the id and name of what a create answered with.
 */
export class RequestRecorder {
  /** Since the last clear: what a lifecycle reads. */
  private readonly log: ServedRequest[] = [];
  /** Since the start: the run's report. */
  readonly every: ServedRequest[] = [];
  readonly created: Created[] = [];

  /** Starts a proxy on a free local port that forwards to `target` (a base URL, without /v1 or /v2). */
  async proxy(target: string): Promise<RecordingProxy> {
    const server = createServer((request, response) => {
      this.forward(target, request, response).catch((error: Error) => {
        response.writeHead(502, { "content-type": "application/json" });
        response.end(JSON.stringify({ status: "error", code: "LIVE_PROXY", message: error.message }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  /** The log a lifecycle reads and clears. */
  requestLog(): RequestLog {
    return {
      requests: async () => [...this.log],
      clearRequests: async () => {
        this.log.length = 0;
      },
      counters: async () => {
        const counts: Record<string, number> = {};
        for (const { route } of this.log) counts[route] = (counts[route] ?? 0) + 1;
        return counts;
      },
    };
  }

  private async forward(target: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = request.method ?? "GET";
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] => !HOP_HEADERS.includes(entry[0]) && typeof entry[1] === "string",
      ),
    );
    const answer = await fetch(`${target}${request.url}`, {
      method,
      headers,
      body: body.length > 0 ? body : undefined,
      redirect: "manual",
    });
    const answered = Buffer.from(await answer.arrayBuffer());
    const path = (request.url ?? "/").split("?")[0];
    const entry = { method, route: routeOf(method, path), path, status: answer.status };
    this.log.push(entry);
    this.every.push(entry);
    if (method === "POST" && answer.ok) this.noteCreated(entry.route, answered);
    // fetch has undone any content encoding: the length and encoding are the proxy's to state.
    const forwarded: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(name))
        forwarded[name] = value;
    });
    response.writeHead(answer.status, forwarded);
    response.end(answered);
  }

  private noteCreated(route: string, body: Buffer): void {
    try {
      const { response } = JSON.parse(body.toString("utf8")) as { response?: { id?: unknown; name?: unknown } };
      if (typeof response?.id === "string")
        this.created.push({
          route,
          id: response.id,
          ...(typeof response.name === "string" ? { name: response.name } : {}),
        });
    } catch {
      // Not JSON: nothing created to note.
    }
  }
}
