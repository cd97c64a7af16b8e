/** Shapes of the admin surface under /__emulator/, shared by the server and the typed client. */

export type FaultKind = "status" | "latency" | "reset" | "drop-after-commit";

export interface FaultSpec {
  /** Which requests: `path` is a route template ("/v2/databases/:id") or an exact concrete path. */
  match: { method?: string; path?: string };
  kind: FaultKind;
  /** 0..1, applied to every matching request; ignored when `count` is given. Default 1. */
  probability?: number;
  /** Apply to the next N matching requests, then retire the fault. */
  count?: number;
  /** For "status": the HTTP status and error code to answer with (defaults 500 INTERNAL_SERVER_ERROR). */
  status?: number;
  code?: string;
  /** For "latency": how long to wait (real milliseconds) before processing normally. */
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
  /** HTTP status decided by the emulator; 0 when a "reset" fault closed the socket first. */
  status: number;
  /** ISO timestamp on the emulator clock. */
  at: string;
  fault?: FaultKind;
}

export type RequestCounters = Record<string, number>;
