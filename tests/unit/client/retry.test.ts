import {
  ApiError,
  errorFromResponse,
  errorFromTransport,
  type HttpMethod,
  invalidResponse,
  type Origin,
  type RequestContext,
} from "../../../provider/client/errors";
import { Found, type RetryPolicy, type Settle, withRetry } from "../../../provider/client/retry";
import { FakeClock } from "../helpers/fake-clock";

const policy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  refusalMaxDelayMs: 400,
  deadlineMs: 60_000,
  refusedAttempts: 3,
};
const ORIGIN: Origin = { baseUrl: "http://127.0.0.1:1", secrets: [] };

function context(method: HttpMethod): RequestContext {
  return { operation: "test call", method, path: "/v2/test" };
}

function httpError(method: HttpMethod, status: number, code?: string, retryAfterMs?: number): ApiError {
  return errorFromResponse(context(method), { status, code, retryAfterMs }, ORIGIN);
}

function transportError(method: HttpMethod, systemCode: string): ApiError {
  const cause = Object.assign(new Error("socket trouble"), { code: systemCode });
  return errorFromTransport(context(method), cause, { timedOut: false, timeoutMs: 1000 }, ORIGIN);
}

function timeoutError(method: HttpMethod): ApiError {
  return errorFromTransport(context(method), new Error("aborted"), { timedOut: true, timeoutMs: 1000 }, ORIGIN);
}

/** Fails with the given errors in turn, then returns "ok"; counts attempts and their numbers. */
function script(...failures: unknown[]) {
  const calls = { attempts: 0, numbers: [] as number[] };
  const attempt = async (attemptNumber: number) => {
    calls.numbers.push(attemptNumber);
    const failure = failures[calls.attempts++];
    if (failure !== undefined) throw failure;
    return "ok";
  };
  return { calls, attempt };
}

async function run(
  failures: unknown[],
  overrides: Partial<RetryPolicy> = {},
  random = () => 0.5,
  settle?: Settle<string>,
) {
  const clock = new FakeClock();
  const { calls, attempt } = script(...failures);
  const outcome = await withRetry(attempt, { policy: { ...policy, ...overrides }, clock, random, settle }).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, attempts: calls.attempts, numbers: calls.numbers, sleeps: clock.sleeps };
}

/**
 * A settle read that answers the given findings in turn (nothing once they run out); counts reads.
 * Conclusive unless told: most tests here are about the loop, not about which answers prove.
 */
function reads(findings: (string | undefined)[], conclusive = true) {
  const calls = { reads: 0 };
  const settle: Settle<string> = { conclusive, read: async () => findings[calls.reads++] };
  return { calls, settle };
}

describe("withRetry", () => {
  it("retries 503 on an idempotent request with growing jittered waits", async () => {
    const result = await run([httpError("GET", 503), httpError("GET", 502), httpError("GET", 504)]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(4);
    expect(result.sleeps).toEqual([50, 100, 200]);
  });

  it("waits what Retry-After asks instead of the backoff, and a jitter of up to the base delay", async () => {
    const result = await run([httpError("GET", 429, "RATE_LIMIT", 7000)]);
    expect(result.value).toBe("ok");
    expect(result.sleeps).toEqual([7050]);
    // Never less than asked, never past it by more than the base delay.
    expect((await run([httpError("GET", 429, "RATE_LIMIT", 7000)], {}, () => 0)).sleeps).toEqual([7000]);
    expect((await run([httpError("GET", 429, "RATE_LIMIT", 7000)], {}, () => 0.999999)).sleeps).toEqual([7099]);
  });

  it("waits a documented window out when the server gives no Retry-After: KEEP_CALM 5 s, RESTORE_IN_PROGRESS 60 s", async () => {
    const snapshot = await run([httpError("POST", 429, "KEEP_CALM"), httpError("POST", 429, "KEEP_CALM")], {
      deadlineMs: 120_000,
    });
    expect(snapshot).toMatchObject({ value: "ok", attempts: 3, sleeps: [5_050, 5_050] });
    const restore = await run([httpError("POST", 429, "RESTORE_IN_PROGRESS")], { deadlineMs: 120_000 });
    expect(restore).toMatchObject({ value: "ok", attempts: 2, sleeps: [60_050] });
    // A Retry-After the server does send still wins.
    expect((await run([httpError("POST", 429, "KEEP_CALM", 1_000)])).sleeps).toEqual([1_050]);
  });

  it("waits a window code out whatever status it comes with (the reference gives none for RESTORE_IN_PROGRESS)", async () => {
    const conflict = await run([httpError("POST", 409, "RESTORE_IN_PROGRESS")], { deadlineMs: 120_000 });
    expect(conflict).toMatchObject({ value: "ok", attempts: 2, sleeps: [60_050] });
  });

  it("retries a non-idempotent request the server rejected with 429", async () => {
    const result = await run([httpError("POST", 429, "TOO_MANY_CONCURRENT_UPLOADS")]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(2);
  });

  it("never counts a refusal over the account's limits as an attempt: other clients of the account decide how many come", async () => {
    const busy = () => httpError("POST", 429, "TOO_MANY_CONCURRENT_UPLOADS");
    const result = await run(Array.from({ length: 9 }, busy));
    expect(result).toMatchObject({ value: "ok", attempts: 10 });
    // Without a server wait, a backoff that stops at the refusal ceiling (400 ms here), not at 1 s.
    expect(result.sleeps).toEqual([50, 100, 200, 200, 200, 200, 200, 200, 200]);
    // Between transient failures, a refusal leaves their attempts and backoff as they were.
    const mixed = await run([
      httpError("GET", 503),
      busy(),
      httpError("GET", 503),
      httpError("GET", 503),
      httpError("GET", 503),
    ]);
    expect(mixed).toMatchObject({ value: "ok", attempts: 6, sleeps: [50, 50, 100, 200, 400] });
  });

  it("waits refusals out only within the call's deadline", async () => {
    const keepCalm = Array.from({ length: 50 }, () => httpError("POST", 429, "KEEP_CALM"));
    const result = await run(keepCalm, { deadlineMs: 20_000 });
    expect(result.sleeps).toEqual([5_050, 5_050, 5_050]);
    expect(result.error).toBe(keepCalm[3]);
  });

  it("retries a non-idempotent request whose connection was never opened", async () => {
    const result = await run([
      transportError("POST", "ECONNREFUSED"),
      transportError("POST", "UND_ERR_CONNECT_TIMEOUT"),
    ]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(3);
  });

  it("gives a refused connection up after a few quick attempts; other connection failures keep the whole backoff", async () => {
    const refused = () => transportError("GET", "ECONNREFUSED");
    const stopped = await run([refused(), refused(), refused(), refused(), refused()]);
    expect(stopped).toMatchObject({ attempts: 3, sleeps: [50, 100] });
    expect(stopped.error).toMatchObject({ code: "CONNECTION_REFUSED" });
    const unresolved = () => transportError("GET", "ENOTFOUND");
    const lookup = await run([unresolved(), unresolved(), unresolved(), unresolved(), unresolved()]);
    expect(lookup).toMatchObject({ attempts: 5, sleeps: [50, 100, 200, 400] });
    expect(lookup.error).toMatchObject({ code: "CONNECTION_FAILED" });
  });

  it.each([
    ["a 503", () => httpError("POST", 503)],
    ["a reset after sending", () => transportError("POST", "ECONNRESET")],
    ["a closed socket", () => transportError("POST", "UND_ERR_SOCKET")],
    ["a timeout", () => timeoutError("POST")],
  ])("does not retry a non-idempotent request after %s, and flags it", async (_name, failure) => {
    const result = await run([failure()]);
    expect(result.attempts).toBe(1);
    expect(result.sleeps).toEqual([]);
    expect(result.error).toBeInstanceOf(ApiError);
    expect((result.error as ApiError).mayHaveCommitted).toBe(true);
  });

  it.each([
    ["reset", () => transportError("DELETE", "ECONNRESET")],
    ["timeout", () => timeoutError("GET")],
    ["503", () => httpError("PATCH", 503)],
    ["500 on a read", () => httpError("GET", 500, "INTERNAL_SERVER_ERROR")],
    ["500 on a delete", () => httpError("DELETE", 500, "INTERNAL_SERVER_ERROR")],
  ])("retries an idempotent request after a %s", async (_name, failure) => {
    const result = await run([failure(), failure()]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(3);
  });

  it("does not retry errors that are not transient", async () => {
    for (const failure of [
      httpError("GET", 400, "INVALID_NAME"),
      httpError("POST", 500, "INTERNAL_SERVER_ERROR"),
      httpError("POST", 429, "DAILY_SNAPSHOTS_LIMIT_REACHED"),
      transportError("POST", "UND_ERR_CLOSED"),
      new TypeError("a bug, not an outage"),
    ]) {
      const result = await run([failure]);
      expect(result.error).toBe(failure);
      expect(result.attempts).toBe(1);
    }
  });

  it("stops after maxAttempts and throws the last error", async () => {
    const failures = Array.from({ length: 10 }, () => httpError("GET", 503));
    const result = await run(failures, {}, () => 0.999999);
    expect(result.attempts).toBe(5);
    expect(result.sleeps).toEqual([99, 199, 399, 799]);
    expect(result.error).toBe(failures[4]);
  });

  it("does not start a wait that would end past the deadline", async () => {
    const failures = Array.from({ length: 10 }, () => httpError("GET", 503));
    const result = await run(failures, { deadlineMs: 500 }, () => 0.999999);
    // 99 + 199 = 298 fits in 500 ms; a further 399 would not.
    expect(result.sleeps).toEqual([99, 199]);
    expect(result.attempts).toBe(3);
    expect(result.error).toBe(failures[2]);
  });

  it("gives up at once when Retry-After is beyond the deadline", async () => {
    const tooLate = httpError("GET", 429, "RATE_LIMIT", 120_000);
    const result = await run([tooLate]);
    expect(result.error).toBe(tooLate);
    expect(result.attempts).toBe(1);
    expect(result.sleeps).toEqual([]);
  });
});

describe("withRetry with a settle read", () => {
  const lost = () => httpError("POST", 504, "GATEWAY_TIMEOUT");

  it("ends a lost request that took effect with what the read found, without sending it again", async () => {
    const { calls, settle } = reads(["db_1"]);
    const result = await run([transportError("POST", "ECONNRESET")], {}, () => 0.5, settle);
    expect(result).toMatchObject({ error: undefined, attempts: 1, sleeps: [] });
    expect(result.value).toEqual(new Found("db_1"));
    expect(calls.reads).toBe(1);
  });

  it("sends a request whose read is conclusive again when it shows nothing, with the backoff, as the next attempt", async () => {
    const { calls, settle } = reads([]);
    const result = await run([lost(), timeoutError("POST")], {}, () => 0.5, settle);
    expect(result).toMatchObject({ value: "ok", attempts: 3, numbers: [1, 2, 3], sleeps: [50, 100] });
    expect(calls.reads).toBe(2);
  });

  it("sends any request again after a 503 the read shows did nothing, waiting what Retry-After asks", async () => {
    const { calls, settle } = reads([], false);
    const result = await run(
      [httpError("POST", 503, "SERVICE_UNAVAILABLE", 3_000), httpError("POST", 503, "SERVICE_UNAVAILABLE")],
      {},
      () => 0.5,
      settle,
    );
    expect(result).toMatchObject({ value: "ok", attempts: 3, sleeps: [3_000, 100] });
    expect(calls.reads).toBe(2);
  });

  it.each([
    ["a reset", "ECONNRESET"],
    ["a broken pipe", "EPIPE"],
    ["a socket closed by the other side", "UND_ERR_SOCKET"],
  ])(
    "sends any request again after %s with no answer that the read shows did nothing, within the attempts",
    async (_name, systemCode) => {
      const { calls, settle } = reads([], false);
      const failures = Array.from({ length: 10 }, () => transportError("POST", systemCode));
      const result = await run(failures, {}, () => 0.5, settle);
      expect(result).toMatchObject({ attempts: 5, numbers: [1, 2, 3, 4, 5], sleeps: [50, 100, 200, 400] });
      expect(result.error).toBe(failures[4]);
      expect(result.error).toMatchObject({ code: "CONNECTION_RESET", nothingShown: true });
      expect(calls.reads).toBe(5);
    },
  );

  it("ends a request sent again after a reset with what a later read found, never sending it a third time", async () => {
    const { calls, settle } = reads([undefined, "db_2"], false);
    const reset = () => transportError("POST", "ECONNRESET");
    const result = await run([reset(), reset(), reset()], {}, () => 0.5, settle);
    expect(result).toMatchObject({ value: new Found("db_2"), attempts: 2, sleeps: [50] });
    expect(calls.reads).toBe(2);
  });

  it.each([
    ["a 500", () => httpError("POST", 500, "INTERNAL_SERVER_ERROR")],
    ["a 502", () => httpError("POST", 502, "BAD_GATEWAY")],
    ["a 504", () => httpError("POST", 504, "GATEWAY_TIMEOUT")],
    ["a timeout", () => timeoutError("POST")],
    ["an unreadable success", () => invalidResponse(context("POST"), 200, "the body is not JSON")],
  ])(
    "never sends a request that may create something again after %s, even when the read shows nothing",
    async (_name, failure) => {
      const { calls, settle } = reads([], false);
      const error = failure();
      const result = await run([error], {}, () => 0.5, settle);
      expect(result).toMatchObject({ error, attempts: 1, sleeps: [] });
      expect(error.nothingShown).toBe(true);
      expect(calls.reads).toBe(1);
    },
  );

  it("reads after the last attempt too: a last attempt that took effect is a success", async () => {
    const { calls, settle } = reads([undefined, undefined, undefined, undefined, "late"]);
    const result = await run(Array.from({ length: 10 }, lost), {}, () => 0.5, settle);
    expect(result).toMatchObject({ value: new Found("late"), error: undefined, attempts: 5 });
    expect(calls.reads).toBe(5);
  });

  it("keeps to the attempt budget and throws the last lost attempt's error when nothing took effect", async () => {
    const failures = Array.from({ length: 10 }, lost);
    const { settle } = reads([]);
    const result = await run(failures, {}, () => 0.999999, settle);
    expect(result).toMatchObject({ attempts: 5, sleeps: [99, 199, 399, 799] });
    expect(result.error).toBe(failures[4]);
    expect(result.error).toMatchObject({ mayHaveCommitted: true, nothingShown: true });
  });

  it("keeps to the deadline", async () => {
    const failures = Array.from({ length: 10 }, lost);
    const result = await run(failures, { deadlineMs: 500 }, () => 0.999999, reads([]).settle);
    expect(result).toMatchObject({ attempts: 3, sleeps: [99, 199] });
    expect(result.error).toBe(failures[2]);
  });

  it("reports the lost attempt's error when the read itself fails, and the reader's own refusal as it is", async () => {
    const failure = lost();
    const readFails: Settle<string> = {
      read: async () => {
        throw httpError("GET", 503);
      },
    };
    expect(await run([failure], {}, () => 0.5, readFails)).toMatchObject({ error: failure, attempts: 1, sleeps: [] });
    expect(failure.nothingShown).toBe(false);
    const several = new Error("two new databases of that name appeared");
    const readRefuses: Settle<string> = {
      read: async () => {
        throw several;
      },
    };
    expect(await run([lost()], {}, () => 0.5, readRefuses)).toMatchObject({ error: several, attempts: 1 });
  });

  it("does not read after failures that cannot have taken effect, nor after refusals", async () => {
    const { calls, settle } = reads(["found"]);
    const refused = httpError("POST", 400, "INVALID_CODE");
    const result = await run(
      [transportError("POST", "ECONNREFUSED"), httpError("POST", 429, "RATE_LIMIT"), refused],
      {},
      () => 0.5,
      settle,
    );
    expect(result).toMatchObject({ error: refused, attempts: 3 });
    expect(calls.reads).toBe(0);
  });
});

describe("afterLostAttempt", () => {
  it("marks an answer that follows a lost attempt of the same call: a NOT_FOUND then is that attempt's doing", async () => {
    const gone = httpError("DELETE", 404, "DATABASE_NOT_FOUND");
    const result = await run([transportError("DELETE", "ECONNRESET"), gone]);
    expect(result).toMatchObject({ error: gone, attempts: 2 });
    expect(gone.afterLostAttempt).toBe(true);
  });

  it.each([
    ["on a first attempt", () => []],
    ["after a connection that was never opened", () => [transportError("DELETE", "ECONNREFUSED")]],
    ["after a 429", () => [httpError("DELETE", 429, "RATE_LIMIT")]],
  ])("is not set %s", async (_name, before) => {
    const gone = httpError("DELETE", 404, "DATABASE_NOT_FOUND");
    const result = await run([...before(), gone]);
    expect(result.error).toBe(gone);
    expect(gone.afterLostAttempt).toBe(false);
  });
});
