// Literal segments beat parameters ("/v2/workspaces/leave" over "/v2/workspaces/:id").

export interface Route<H> {
  method: string;
  template: string;
  handler: H;
  /** The most a request body may hold, when more than the JSON limit (uploads). */
  bodyLimitBytes?: number;
  /**
   * "any": the JSON body is read whatever its Content-Type says (or without one), for a route the
   * official clients call without `application/json`; by default anything else is 415.
   */
  jsonContentType?: "required" | "any";
}

export type RouteMatch<H> =
  | { kind: "found"; route: Route<H>; params: Record<string, string> }
  | { kind: "method-not-allowed"; template: string; allowed: string[] }
  | { kind: "not-found" };

interface CompiledRoute<H> {
  route: Route<H>;
  segments: string[];
  literalCount: number;
}

export class Router<H> {
  private readonly compiled: CompiledRoute<H>[];

  /** `reserved`: path segments that are routes of their own on the live service, never ids. */
  constructor(
    routes: Route<H>[],
    private readonly reserved: ReadonlySet<string> = new Set(),
  ) {
    this.compiled = routes.map((route) => {
      const segments = route.template.split("/").slice(1);
      return { route, segments, literalCount: segments.filter((s) => !s.startsWith(":")).length };
    });
  }

  match(method: string, pathname: string): RouteMatch<H> {
    const segments = splitPath(pathname);
    if (!segments) return { kind: "not-found" };
    const candidates = this.compiled
      .map((c) => ({ compiled: c, params: bind(c.segments, segments, this.reserved) }))
      .filter((c): c is { compiled: CompiledRoute<H>; params: Record<string, string> } => c.params !== undefined)
      .sort((a, b) => b.compiled.literalCount - a.compiled.literalCount);
    if (candidates.length === 0) return { kind: "not-found" };
    const hit = candidates.find((c) => c.compiled.route.method === method);
    if (hit) return { kind: "found", route: hit.compiled.route, params: hit.params };
    const best = candidates[0]!.compiled.route.template;
    const allowed = [
      ...new Set(candidates.filter((c) => c.compiled.route.template === best).map((c) => c.compiled.route.method)),
    ];
    return { kind: "method-not-allowed", template: best, allowed };
  }
}

/** Decoded segments, or undefined when the path cannot be a route (bad escapes, empty segments). */
function splitPath(pathname: string): string[] | undefined {
  const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  const raw = trimmed.split("/").slice(1);
  const decoded: string[] = [];
  for (const segment of raw) {
    if (segment === "") return undefined;
    try {
      decoded.push(decodeURIComponent(segment));
    } catch {
      // Keep the raw text: it can still fill a parameter, whose own validation rejects it.
      decoded.push(segment);
    }
  }
  return decoded;
}

function bind(template: string[], path: string[], reserved: ReadonlySet<string>): Record<string, string> | undefined {
  if (template.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const expected = template[i]!;
    if (expected.startsWith(":")) {
      if (reserved.has(path[i]!)) return undefined;
      params[expected.slice(1)] = path[i]!;
    } else if (expected !== path[i]) return undefined;
  }
  return params;
}
