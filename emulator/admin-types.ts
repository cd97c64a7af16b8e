/** Shapes of the admin surface under /__emulator/, shared by the server and the typed client. */

export type FaultKind = "status" | "status-after-commit" | "latency" | "hold" | "reset" | "drop-after-commit";

export interface FaultSpec {
  /** Which requests: `path` is a route template ("/v2/databases/:id") or an exact concrete path. */
  match: { method?: string; path?: string };
  kind: FaultKind;
  /** 0..1, applied to every matching request; ignored when `count` is given. Default 1. */
  probability?: number;
  /** Apply to the next N matching requests, then retire the fault. */
  count?: number;
  /**
   * For "status" and "status-after-commit": the HTTP status and error code to answer with (defaults
   * 500 INTERNAL_SERVER_ERROR). "status" answers instead of the route; "status-after-commit" once
   * the route has done its work, as a service answers 202 `SNAPSHOT_PROCESSING` for a snapshot it
   * is still generating.
   */
  status?: number;
  code?: string;
  /** For "status": a Retry-After header sent verbatim, delta-seconds ("2") or an HTTP date in IMF-fixdate form. */
  retryAfter?: string;
  /**
   * For "latency": how much longer (real milliseconds) the request takes to arrive, then it is
   * processed normally. A body-less request waits before its handler runs; a request with a body
   * waits once its handler has admitted it (authentication, an upload's in-flight slot) and read
   * the body, so whatever it was admitted to stays held for the whole wait.
   */
  latencyMs?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** For count-limited faults: how many applications are left. */
  remaining?: number;
}

export interface RequestLogEntry {
  method: string;
  /** "METHOD template", e.g. "PATCH /v2/databases/:id"; "METHOD (no route)" for unknown paths. */
  route: string;
  /** The path without its query string (queries never reach the log). */
  path: string;
  /**
   * HTTP status decided by the emulator; 0 when a "reset" fault closed the socket first; 499
   * (nginx's "client closed request") when the client left before the answer could be sent, even
   * if the work was done.
   */
  status: number;
  /** ISO timestamp on the emulator clock. */
  at: string;
  fault?: FaultKind;
  /** The client's attempt number from its `X-Attempt` header (sent on retries, 2 and up). */
  attempt?: number;
}

export type RequestCounters = Record<string, number>;

/** An account the admin surface added (POST /__emulator/accounts). */
export interface CreatedAccount {
  accountId: string;
  apiKey: string;
  name: string;
  email: string;
}
