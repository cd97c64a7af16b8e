import { apiError } from "../errors";
import { bare } from "../http/reply";
import type { Route } from "../http/router";
import type { AdminHandler } from "../http/server";
import { isObjectIdForm } from "../models/rules";
import { planRecord, PLANS, type PlanName } from "../seed";

/** Accepts epoch milliseconds or an ISO 8601 string. */
function parseInstant(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

const DEFAULT_WAIT_MS = 10_000;
const MAX_WAIT_MS = 60_000;

/** A positive integer query value, the default when absent; undefined when malformed. */
function positiveInteger(value: string | null, fallback: number, max = Infinity): number | undefined {
  if (value === null) return fallback;
  const parsed = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return parsed >= 1 && parsed <= max ? parsed : undefined;
}

/** How long a wait route may hold its answer: a safety net, so a broken test fails clearly. */
function waitTimeout(query: URLSearchParams): number {
  const timeoutMs = positiveInteger(query.get("timeoutMs"), DEFAULT_WAIT_MS, MAX_WAIT_MS);
  if (timeoutMs === undefined) throw apiError("INVALID_WAIT");
  return timeoutMs;
}

/** The reserved /__emulator/ surface: no auth, for tests and demos only. */
export const adminRoutes: Route<AdminHandler>[] = [
  {
    method: "POST",
    template: "/__emulator/reset",
    handler: (_request, core) => {
      core.reset();
      return bare({ reset: true, now: core.clock.now() });
    },
  },
  {
    method: "GET",
    template: "/__emulator/clock",
    handler: (_request, core) => bare({ now: core.clock.now() }),
  },
  {
    method: "POST",
    template: "/__emulator/clock",
    handler: async ({ json }, core) => {
      const body = await json();
      if (typeof body.advanceMs === "number" && Number.isFinite(body.advanceMs) && body.now === undefined) {
        return bare({ now: core.clock.advance(body.advanceMs) });
      }
      const now = body.advanceMs === undefined ? parseInstant(body.now) : undefined;
      if (now === undefined) throw apiError("INVALID_CLOCK");
      return bare({ now: core.clock.set(now) });
    },
  },
  {
    method: "POST",
    template: "/__emulator/faults",
    handler: async ({ json }, core) => bare({ id: core.faults.add(await json()).id }),
  },
  {
    method: "GET",
    template: "/__emulator/faults",
    handler: (_request, core) => bare(core.faults.list()),
  },
  {
    method: "DELETE",
    template: "/__emulator/faults",
    handler: (_request, core) => {
      core.faults.clear();
      return bare({ cleared: true });
    },
  },
  {
    // Draws and new ids derive from the seed, so a repeated run meets the same faults (FaultRegistry).
    method: "POST",
    template: "/__emulator/faults/seed",
    handler: async ({ json }, core) => {
      const { seed } = await json();
      if (typeof seed !== "string" || seed === "" || seed.length > 128) throw apiError("INVALID_SEED");
      core.seed(seed);
      return bare({ seed });
    },
  },
  {
    method: "POST",
    template: "/__emulator/faults/release",
    handler: (_request, core) => bare({ released: core.faults.release() }),
  },
  {
    method: "GET",
    template: "/__emulator/faults/wait",
    handler: async ({ query }, core) => {
      if (!(await core.faults.waitUntilUsedUp(waitTimeout(query)))) throw apiError("WAIT_TIMEOUT");
      return bare([]);
    },
  },
  {
    method: "GET",
    template: "/__emulator/requests",
    handler: (_request, core) => bare(core.requestLog.list()),
  },
  {
    method: "GET",
    template: "/__emulator/requests/wait",
    handler: async ({ query }, core) => {
      const route = query.get("route");
      const count = positiveInteger(query.get("count"), 1);
      const timeoutMs = waitTimeout(query);
      if (!route || count === undefined) throw apiError("INVALID_WAIT");
      if (!(await core.requestLog.waitFor(route, count, timeoutMs))) throw apiError("WAIT_TIMEOUT");
      return bare(core.requestLog.list().filter((entry) => entry.route === route));
    },
  },
  {
    method: "DELETE",
    template: "/__emulator/requests",
    handler: (_request, core) => {
      core.requestLog.clear();
      return bare({ cleared: true });
    },
  },
  {
    method: "GET",
    template: "/__emulator/counters",
    handler: (_request, core) => bare(core.requestLog.counters()),
  },
  {
    // Seeded plans are small on purpose (limits one request away); a stack of hundreds of
    // databases and objects needs a bigger one, given to an existing account in place.
    method: "POST",
    template: "/__emulator/plan",
    handler: async ({ json }, core) => {
      const { accountId, plan } = await json();
      const account = typeof accountId === "string" ? core.models.accounts.find(accountId) : undefined;
      if (!account || typeof plan !== "string" || !Object.hasOwn(PLANS, plan)) throw apiError("INVALID_PLAN");
      account.plan = planRecord(plan as PlanName, core.clock.now());
      core.persist();
      return bare({ accountId: account.id, plan: account.plan.name, memoryLimitMb: account.plan.memoryLimitMb });
    },
  },
  {
    // Invite codes are single use and one at a time per person: many workspaces adding members at
    // once need as many people as members, more than the seed has. Until the next reset.
    method: "POST",
    template: "/__emulator/accounts",
    handler: async ({ json }, core) => {
      const { name, plan = "standard-4" } = await json();
      if (typeof name !== "string" || typeof plan !== "string" || !Object.hasOwn(PLANS, plan))
        throw apiError("INVALID_ACCOUNT");
      const account = core.models.accounts.create(name, plan as PlanName);
      core.persist();
      return bare({ accountId: account.id, apiKey: account.apiKey, name: account.name, email: account.email });
    },
  },
  {
    method: "POST",
    template: "/__emulator/accounts/:id/api-key",
    handler: ({ params }, core) => {
      const apiKey = core.models.accounts.rotateApiKey(params.id);
      core.persist();
      return bare({ apiKey });
    },
  },
  {
    // Until the next reset, which returns to the form the emulator was started with.
    method: "POST",
    template: "/__emulator/object-ids",
    handler: async ({ json }, core) => {
      const { form } = await json();
      if (!isObjectIdForm(form)) throw apiError("INVALID_OBJECT_IDS");
      core.models.blobObjects.objectIds = form;
      return bare({ form });
    },
  },
  {
    method: "GET",
    template: "/__emulator/uploads",
    handler: (_request, core) => bare({ peakInFlight: core.models.blobObjects.peakUploadsInFlight() }),
  },
];
