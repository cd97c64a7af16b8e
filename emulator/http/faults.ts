import { z } from "zod";
import type { Fault, FaultSpec } from "../admin-types";
import { apiError, injectedError } from "../errors";
import { Changes } from "./changes";
import { requestIdentity, seededDraw, type DrawnRequest } from "./fault-draw";
import type { Reply } from "./reply";

/**
 * Delta-seconds, or an HTTP date in IMF-fixdate, the one form senders must generate (RFC 9110
 * 5.6.7). Anything else is refused: the value goes out verbatim as a header.
 */
const RETRY_AFTER_PATTERN =
  /^(?:\d{1,10}|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT)$/;

const faultSpecSchema = z
  .object({
    match: z
      .object({
        method: z
          .string()
          .regex(/^[A-Za-z]{1,10}$/)
          .optional(),
        path: z.string().startsWith("/").max(512).optional(),
      })
      .strict(),
    kind: z.enum(["status", "status-after-commit", "latency", "hold", "reset", "drop-after-commit"]),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().positive().optional(),
    status: z.number().int().min(100).max(599).optional(),
    code: z
      .string()
      .regex(/^[A-Z0-9_]{1,64}$/)
      .optional(),
    retryAfter: z
      .string()
      .regex(RETRY_AFTER_PATTERN, "retryAfter must be delta-seconds or an IMF-fixdate HTTP date")
      .optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
  })
  .strict()
  .refine((spec) => spec.kind !== "latency" || spec.latencyMs !== undefined, { path: ["latencyMs"] })
  .refine((spec) => spec.kind === "status" || spec.kind === "status-after-commit" || spec.retryAfter === undefined, {
    path: ["retryAfter"],
    message: "retryAfter only applies to status and status-after-commit faults",
  });

/** The answer of a "status" fault, with its Retry-After when it has one. */
export function statusFaultReply(fault: Fault): Reply {
  const error = injectedError(fault.status ?? 500, fault.code ?? "INTERNAL_SERVER_ERROR");
  return {
    status: error.status,
    body: error.toBody(),
    ...(fault.retryAfter !== undefined ? { headers: { "Retry-After": fault.retryAfter } } : {}),
  };
}

/** Route parameters match by position, whatever their name: "/v2/databases/:databaseId" == ":id". */
function normalizeTemplate(path: string): string {
  return path.replace(/\/:[^/]+/g, "/:param").replace(/(.)\/$/, "$1");
}

/** A request as fault matching and seeded draws see it. */
export interface FaultRequest extends DrawnRequest {
  /** The route template it matched, if any. */
  template: string | undefined;
}

/**
 * The oldest matching fault wins. Seeded, a draw depends on the request's identity, never its
 * arrival order, so concurrent runs meet the same faults each time (fault-draw.ts).
 */
export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;
  private readonly changes = new Changes();
  private seedValue: string | undefined;
  /** Identity -> how many requests of it were drawn for since the seed was set. */
  private occurrences = new Map<string, number>();
  /** Spec and rank among identical faults, not the id, which would make draws depend on earlier runs. */
  private readonly drawKeys = new WeakMap<Fault, { spec: string; key: string }>();
  /** Requests held by "hold" faults: each waits until its resolver is called. */
  private holds = new Set<() => void>();

  add(input: unknown): Fault {
    const parsed = faultSpecSchema.safeParse(input);
    if (!parsed.success)
      throw apiError("INVALID_FAULT", `Invalid fault: ${parsed.error.issues[0]?.message ?? "bad shape"}`);
    const spec: FaultSpec = parsed.data;
    const fault: Fault = {
      ...spec,
      id: `fault-${this.nextId++}`,
      ...(spec.count !== undefined ? { remaining: spec.count } : {}),
    };
    const specText = JSON.stringify(spec);
    const twins = this.faults.filter((f) => this.drawKeys.get(f)?.spec === specText).length;
    this.drawKeys.set(fault, { spec: specText, key: `${specText}#${twins}` });
    this.faults.push(fault);
    return fault;
  }

  /**
   * Makes the probability draws reproducible: from now on each is a hash of `seed`, the fault,
   * the request's identity and its occurrence, whatever the order requests arrive in.
   */
  seed(seed: string): void {
    this.seedValue = seed;
    this.occurrences.clear();
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f, match: { ...f.match } }));
  }

  /** Removes every fault and lets held requests go (a test that stops early leaves none hanging). */
  clear(): void {
    this.faults = [];
    this.release();
    this.changes.notify();
  }

  /** Back to the state of a fresh emulator: no faults, nothing held, unseeded draws. */
  reset(): void {
    this.clear();
    this.seedValue = undefined;
    this.occurrences.clear();
  }

  /**
   * The wait of a request taken by a "hold" fault: it lasts until `release`, however long, so a
   * test can act (stop a process, say) while the server has the request in hand.
   */
  held(): Promise<void> {
    return new Promise((resolve) => this.holds.add(resolve));
  }

  /** Lets every held request go on; returns how many there were. */
  release(): number {
    const released = [...this.holds];
    this.holds.clear();
    for (const resolve of released) resolve();
    return released.length;
  }

  /**
   * Whether a seeded draw may decide this request's fault: its identity then includes what its
   * body names, so the server reads the body before taking the fault.
   */
  wantsBody(method: string, template: string | undefined, path: string): boolean {
    return this.seedValue !== undefined && this.faults.some((f) => drawn(f) && matches(f, method, template, path));
  }

  /** The fault to apply to this request, if any; consumes one use of a count-limited fault. */
  take(request: FaultRequest): Fault | undefined {
    const { method, template, path } = request;
    const candidates = this.faults.filter((f) => matches(f, method, template, path));
    const random = this.drawsFor(request, candidates);
    const fault = candidates.find((f) => f.remaining !== undefined || random(f) < (f.probability ?? 1));
    if (fault?.remaining !== undefined) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
      this.changes.notify();
    }
    return fault;
  }

  /** A fault is taken once the request is routed, so this tells a test the server has it in hand. */
  waitUntilUsedUp(timeoutMs: number): Promise<boolean> {
    return this.changes.until(() => this.faults.length === 0, timeoutMs);
  }

  /**
   * The draw of each candidate fault for this request. Seeded, the request's occurrence is
   * counted once, whichever of its faults fires, so it does not depend on count-limited faults.
   */
  private drawsFor(request: FaultRequest, candidates: Fault[]): (fault: Fault) => number {
    const seed = this.seedValue;
    if (seed === undefined || !candidates.some(drawn)) return () => Math.random();
    const identity = requestIdentity(request);
    const occurrence = this.occurrences.get(identity) ?? 0;
    this.occurrences.set(identity, occurrence + 1);
    return (fault) => seededDraw(seed, this.drawKeys.get(fault)!.key, identity, occurrence);
  }
}

/** A fault that fires by chance (neither count-limited nor certain nor impossible). */
function drawn(fault: Fault): boolean {
  const probability = fault.probability ?? 1;
  return fault.remaining === undefined && probability > 0 && probability < 1;
}

function matches(fault: Fault, method: string, template: string | undefined, path: string): boolean {
  const { method: wanted, path: wantedPath } = fault.match;
  if (wanted && wanted.toUpperCase() !== method) return false;
  if (!wantedPath) return true;
  const normalized = normalizeTemplate(wantedPath);
  return (
    normalized === normalizeTemplate(path) || (template !== undefined && normalized === normalizeTemplate(template))
  );
}
