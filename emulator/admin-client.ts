import type { CreatedAccount, Fault, FaultSpec, RequestCounters, RequestLogEntry } from "./admin-types";
import type { ObjectIdForm } from "./models/rules";

export type { CreatedAccount, Fault, FaultKind, FaultSpec, RequestCounters, RequestLogEntry } from "./admin-types";

/**
 * Typed client for the emulator's /__emulator/ admin surface. Either server's URL works: both
 * share one state, clock, fault list and request log.
 */
export class EmulatorAdmin {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  /** Clears all state and re-seeds; also resets the clock, faults and the request log. */
  async reset(): Promise<void> {
    await this.call("POST", "/reset");
  }

  /** The emulator clock, epoch milliseconds. */
  async clock(): Promise<number> {
    return (await this.call<{ now: number }>("GET", "/clock")).now;
  }

  async setClock(now: number | Date | string): Promise<number> {
    const value = now instanceof Date ? now.getTime() : now;
    return (await this.call<{ now: number }>("POST", "/clock", { now: value })).now;
  }

  async advanceClock(ms: number): Promise<number> {
    return (await this.call<{ now: number }>("POST", "/clock", { advanceMs: ms })).now;
  }

  /** Returns the fault's id. */
  async injectFault(spec: FaultSpec): Promise<string> {
    return (await this.call<{ id: string }>("POST", "/faults", spec)).id;
  }

  /**
   * Makes probability faults a function of `seed` and each request's identity, and derives the
   * ids and invite codes the emulator hands out from `seed`, so a run can be repeated: the same
   * requests meet the same faults, in whatever order they arrive.
   */
  async seedFaults(seed: string): Promise<void> {
    await this.call("POST", "/faults/seed", { seed });
  }

  async faults(): Promise<Fault[]> {
    return this.call<Fault[]>("GET", "/faults");
  }

  /** Resolves once no fault is left: every count-limited fault has been taken by a request. */
  async waitForFaultsUsedUp(timeoutMs?: number): Promise<void> {
    await this.call("GET", `/faults/wait?${waitQuery({}, timeoutMs)}`);
  }

  /** Lets every request held by a "hold" fault go on; returns how many there were. */
  async releaseHeld(): Promise<number> {
    return (await this.call<{ released: number }>("POST", "/faults/release")).released;
  }

  async clearFaults(): Promise<void> {
    await this.call("DELETE", "/faults");
  }

  async requests(): Promise<RequestLogEntry[]> {
    return this.call<RequestLogEntry[]>("GET", "/requests");
  }

  /**
   * Resolves with the log entries of `route` ("GET /v2/users/me") once `count` of them are
   * logged, i.e. once the server is done with those requests, even those whose client left.
   */
  async waitForRequests(route: string, count = 1, timeoutMs?: number): Promise<RequestLogEntry[]> {
    return this.call<RequestLogEntry[]>(
      "GET",
      `/requests/wait?${waitQuery({ route, count: String(count) }, timeoutMs)}`,
    );
  }

  /** Adds an account (a standard-4 plan unless told), until the next reset. */
  async createAccount(name: string, plan?: string): Promise<CreatedAccount> {
    return this.call<CreatedAccount>("POST", "/accounts", { name, ...(plan ? { plan } : {}) });
  }

  /** Issues the account a new API key and revokes its old one; returns the new key. */
  async rotateApiKey(accountId: string): Promise<string> {
    return (await this.call<{ apiKey: string }>("POST", `/accounts/${encodeURIComponent(accountId)}/api-key`)).apiKey;
  }

  async counters(): Promise<RequestCounters> {
    return this.call<RequestCounters>("GET", "/counters");
  }

  /**
   * Account id -> the most uploads that account had in flight at once since the last reset (the
   * server refuses a fifth with 429 TOO_MANY_CONCURRENT_UPLOADS).
   */
  async peakUploadsInFlight(): Promise<Record<string, number>> {
    return (await this.call<{ peakInFlight: Record<string, number> }>("GET", "/uploads")).peakInFlight;
  }

  /**
   * How the ids of the next uploads are formed ("plain": no -ex<days> suffix on expiring ones),
   * until the next reset returns to the form the emulator was started with.
   */
  async setObjectIds(form: ObjectIdForm): Promise<void> {
    await this.call("POST", "/object-ids", { form });
  }

  /** Gives a seeded account another plan (a name of PLANS), its period starting now. */
  async setPlan(accountId: string, plan: string): Promise<void> {
    await this.call("POST", "/plan", { accountId, plan });
  }

  /** Clears both the request log and the counters. */
  async clearRequests(): Promise<void> {
    await this.call("DELETE", "/requests");
  }

  private async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}/__emulator${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
    });
    const payload = (await response.json()) as T & { code?: string };
    if (!response.ok)
      throw new Error(`emulator admin ${method} ${path} failed: ${response.status} ${payload.code ?? ""}`);
    return payload;
  }
}

/** Wait routes answer 408 WAIT_TIMEOUT after timeoutMs (server default 10 s) so a test fails clearly. */
function waitQuery(params: Record<string, string>, timeoutMs: number | undefined): URLSearchParams {
  const query = new URLSearchParams(params);
  if (timeoutMs !== undefined) query.set("timeoutMs", String(timeoutMs));
  return query;
}
