import { z } from "zod";
import type { Fault, FaultSpec } from "../admin-types";
import { apiError } from "../errors";

const faultSpecSchema = z
  .object({
    match: z
      .object({
        method: z.string().regex(/^[A-Za-z]{1,10}$/).optional(),
        path: z.string().startsWith("/").max(512).optional(),
      })
      .strict(),
    kind: z.enum(["status", "latency", "reset", "drop-after-commit"]),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().positive().optional(),
    status: z.number().int().min(100).max(599).optional(),
    code: z.string().regex(/^[A-Z0-9_]{1,64}$/).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
  })
  .strict()
  .refine((spec) => spec.kind !== "latency" || spec.latencyMs !== undefined, { path: ["latencyMs"] });

/** Route parameters match by position, whatever their name: "/v2/databases/:databaseId" == ":id". */
function normalizeTemplate(path: string): string {
  return path.replace(/\/:[^/]+/g, "/:param").replace(/(.)\/$/, "$1");
}

/**
 * Injected faults. A fault applies to the next `count` matching requests, or to each matching
 * request with `probability`; when several match, the oldest wins. Admin routes never match.
 */
export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;

  add(input: unknown): Fault {
    const parsed = faultSpecSchema.safeParse(input);
    if (!parsed.success) throw apiError("INVALID_FAULT", `Invalid fault: ${parsed.error.issues[0]?.message ?? "bad shape"}`);
    const spec: FaultSpec = parsed.data;
    const fault: Fault = {
      ...spec,
      id: `fault-${this.nextId++}`,
      ...(spec.count !== undefined ? { remaining: spec.count } : {}),
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f, match: { ...f.match } }));
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault to apply to this request, if any; consumes one use of a count-limited fault. */
  take(method: string, template: string | undefined, path: string): Fault | undefined {
    const fault = this.faults.find((f) => matches(f, method, template, path) && fires(f));
    if (fault?.remaining !== undefined) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    }
    return fault;
  }
}

function matches(fault: Fault, method: string, template: string | undefined, path: string): boolean {
  const { method: wanted, path: wantedPath } = fault.match;
  if (wanted && wanted.toUpperCase() !== method) return false;
  if (!wantedPath) return true;
  const normalized = normalizeTemplate(wantedPath);
  return normalized === normalizeTemplate(path) || (template !== undefined && normalized === normalizeTemplate(template));
}

function fires(fault: Fault): boolean {
  if (fault.remaining !== undefined) return true;
  return Math.random() < (fault.probability ?? 1);
}
