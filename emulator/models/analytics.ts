import { DAY_MS, HOUR_MS, iso } from "../clock";
import { seededInt, seededRandom } from "../random";
import type { AppRecord } from "../state";
import type { ModelContext } from "./model-context";
import { ANALYTICS_CACHE_MS } from "./rules";

export type AnalyticsRange = "daily" | "weekly";

/** Bounds within the range (epoch ms), as the current official clients send `start` and `end`. */
export interface AnalyticsWindow {
  start?: number;
  end?: number;
}

interface Bucket {
  start: number;
  visits: number;
  requests: number;
  bytes: number;
}

/** Dimension values per analytics array; "paths" comes from the app's own routes. */
const DIMENSIONS = {
  countries: ["BR", "US", "PT", "DE", "IN"],
  devices: ["desktop", "mobile", "tablet"],
  os: ["Windows", "Android", "iOS", "macOS", "Linux"],
  browsers: ["Chrome", "Safari", "Firefox", "Edge"],
  protocols: ["HTTP/2", "HTTP/1.1", "HTTP/3"],
  methods: ["GET", "POST", "PUT", "DELETE"],
  referers: ["https://www.google.com/", "https://github.com/", "https://t.co/"],
  providers: ["Cloudflare", "Amazon", "Google", "Claro", "Vivo"],
} as const;

const PATHS = ["/", "/about", "/api/health", "/api/items", "/favicon.ico"];

/** Generated from the app id and the clock, so reproducible; cached per app and range for 10 s, as live. */
export class AnalyticsModel {
  private readonly cache = new Map<string, { at: number; value: object }>();

  constructor(private readonly ctx: ModelContext) {}

  analytics(app: AppRecord, range: AnalyticsRange, window: AnalyticsWindow = {}): object {
    const now = this.ctx.clock.now();
    const key = `${app.id}:${range}:${window.start ?? ""}:${window.end ?? ""}`;
    const cached = this.cache.get(key);
    if (cached && now - cached.at < ANALYTICS_CACHE_MS && now >= cached.at) return cached.value;
    const value = compute(app, range, now, window);
    this.cache.set(key, { at: now, value });
    return value;
  }
}

/** The range's buckets that overlap the window, the rest of the answer computed from them alone. */
function compute(app: AppRecord, range: AnalyticsRange, now: number, window: AnalyticsWindow): object {
  // Apps without a website have no traffic: the real service answers an empty object.
  if (!app.domain) return {};
  const step = range === "daily" ? HOUR_MS : DAY_MS;
  const count = range === "daily" ? 24 : 7;
  const lastStart = Math.floor(now / step) * step;
  const buckets: Bucket[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const start = lastStart - i * step;
    if (start + step <= app.createdAt) continue;
    if (window.start !== undefined && start + step <= window.start) continue;
    if (window.end !== undefined && start > window.end) continue;
    buckets.push(bucketFor(app.id, start, step));
  }
  if (buckets.length === 0) return {};
  const latest = buckets[buckets.length - 1]!;
  const total = buckets.reduce(
    (sum, b) => ({ visits: sum.visits + b.visits, requests: sum.requests + b.requests, bytes: sum.bytes + b.bytes }),
    { visits: 0, requests: 0, bytes: 0 },
  );
  const split = (dimension: string, types: readonly string[]) => {
    const random = seededRandom(`${app.id}:${dimension}:${range}:${latest.start}`);
    const weights = types.map((_, i) => (types.length - i) * (0.5 + random()));
    const weightSum = weights.reduce((a, b) => a + b, 0);
    return types.map((type, i) => {
      const share = weights[i]! / weightSum;
      return {
        type,
        visits: Math.round(total.visits * share),
        requests: Math.round(total.requests * share),
        bytes: Math.round(total.bytes * share),
        date: iso(latest.start),
      };
    });
  };
  return {
    visits: buckets.map((b) => ({ visits: b.visits, requests: b.requests, bytes: b.bytes, date: iso(b.start) })),
    countries: split("countries", DIMENSIONS.countries),
    devices: split("devices", DIMENSIONS.devices),
    os: split("os", DIMENSIONS.os),
    browsers: split("browsers", DIMENSIONS.browsers),
    protocols: split("protocols", DIMENSIONS.protocols),
    methods: split("methods", DIMENSIONS.methods),
    paths: split("paths", PATHS),
    referers: split("referers", DIMENSIONS.referers),
    providers: split("providers", DIMENSIONS.providers),
  };
}

/** A day-shaped traffic curve (quiet at night, busy in the afternoon) with per-bucket noise. */
function bucketFor(appId: string, start: number, step: number): Bucket {
  const random = seededRandom(`${appId}:${step}:${start}`);
  const hour = new Date(start).getUTCHours();
  const daily = step === DAY_MS ? 24 : 1;
  const base = (40 + 60 * Math.max(0, Math.sin(((hour - 6) / 24) * 2 * Math.PI))) * daily;
  const visits = Math.round(base * (0.7 + 0.6 * random()));
  const requests = visits * seededInt(random, 4, 12);
  return { start, visits, requests, bytes: requests * seededInt(random, 2_000, 40_000) };
}
