import type { FaultSpec, RequestLogEntry } from "../../../emulator";

/**
 * Every kind of fault the service can throw at a client, in equal shares of `rate`: rate-limit
 * refusals with and without Retry-After, 5xx answers, slow arrivals, connections reset before an
 * answer, and answers dropped after the change was committed. Each matches every API route.
 */
export function faultMix(rate: number): FaultSpec[] {
  const kinds: Omit<FaultSpec, "match" | "probability">[] = [
    { kind: "status", status: 429, code: "TOO_MANY_REQUESTS", retryAfter: "1" },
    { kind: "status", status: 429, code: "TOO_MANY_REQUESTS" },
    { kind: "status", status: 500, code: "INTERNAL_SERVER_ERROR" },
    { kind: "status", status: 502, code: "BAD_GATEWAY" },
    { kind: "status", status: 503, code: "SERVICE_UNAVAILABLE" },
    { kind: "status", status: 504, code: "GATEWAY_TIMEOUT" },
    { kind: "latency", latencyMs: 300 },
    { kind: "reset" },
    { kind: "drop-after-commit" },
  ];
  // Faults are tried oldest first, each with its own draw: the n-th of k is reached only when
  // the ones before it did not fire, so its share is scaled up to keep the shares equal.
  const share = rate / kinds.length;
  return kinds.map((kind, index) => ({ ...kind, match: {}, probability: share / (1 - share * index) }));
}

/** What a stretch of the request log says about how a run went. */
export interface RequestTally {
  requests: number;
  faults: number;
  /** Requests the client sent again after a failed attempt (its `X-Attempt` header, 2 and up). */
  retries: number;
}

export function tallyRequests(log: RequestLogEntry[]): RequestTally {
  return {
    requests: log.length,
    faults: log.filter((entry) => entry.fault !== undefined).length,
    retries: log.filter((entry) => (entry.attempt ?? 1) > 1).length,
  };
}
