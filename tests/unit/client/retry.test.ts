import { ApiError, errorFromResponse, errorFromTransport, HttpMethod, RequestContext } from "../../../provider/client/errors";
import { RetryPolicy, withRetry } from "../../../provider/client/retry";
import { FakeClock } from "../helpers/fake-clock";

const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000, deadlineMs: 60_000 };

function context(method: HttpMethod): RequestContext {
  return { operation: "test call", method, path: "/v2/test" };
}

function httpError(method: HttpMethod, status: number, code?: string, retryAfterMs?: number): ApiError {
  return errorFromResponse(context(method), { status, code, retryAfterMs }, []);
}

function transportError(method: HttpMethod, systemCode: string): ApiError {
  const cause = Object.assign(new Error("socket trouble"), { code: systemCode });
  return errorFromTransport(context(method), cause, { timedOut: false, timeoutMs: 1000 }, []);
}

function timeoutError(method: HttpMethod): ApiError {
  return errorFromTransport(context(method), new Error("aborted"), { timedOut: true, timeoutMs: 1000 }, []);
}

/** Fails with the given errors in turn, then returns "ok"; counts attempts. */
function script(...failures: unknown[]) {
  const calls = { attempts: 0 };
  const attempt = async () => {
    const failure = failures[calls.attempts++];
    if (failure !== undefined) throw failure;
    return "ok";
  };
  return { calls, attempt };
}

async function run(failures: unknown[], overrides: Partial<RetryPolicy> = {}, random = () => 0.5) {
  const clock = new FakeClock();
  const { calls, attempt } = script(...failures);
  const outcome = await withRetry(attempt, { policy: { ...policy, ...overrides }, clock, random }).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, attempts: calls.attempts, sleeps: clock.sleeps };
}

describe("withRetry", () => {
  it("retries 503 on an idempotent request with growing jittered waits", async () => {
    const result = await run([httpError("GET", 503), httpError("GET", 502), httpError("GET", 504)]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(4);
    expect(result.sleeps).toEqual([50, 100, 200]);
  });

  it("waits exactly what Retry-After asks instead of the backoff", async () => {
    const result = await run([httpError("GET", 429, "RATE_LIMIT", 7000)]);
    expect(result.value).toBe("ok");
    expect(result.sleeps).toEqual([7000]);
  });

  it("waits a documented window out when the server gives no Retry-After: KEEP_CALM 5 s, RESTORE_IN_PROGRESS 60 s", async () => {
    const snapshot = await run([httpError("POST", 429, "KEEP_CALM"), httpError("POST", 429, "KEEP_CALM")], { deadlineMs: 120_000 });
    expect(snapshot).toMatchObject({ value: "ok", attempts: 3, sleeps: [5_000, 5_000] });
    const restore = await run([httpError("POST", 429, "RESTORE_IN_PROGRESS")], { deadlineMs: 120_000 });
    expect(restore).toMatchObject({ value: "ok", attempts: 2, sleeps: [60_000] });
    // A Retry-After the server does send still wins.
    expect((await run([httpError("POST", 429, "KEEP_CALM", 1_000)])).sleeps).toEqual([1_000]);
  });

  it("waits a window code out whatever status it comes with (the notes give none for RESTORE_IN_PROGRESS)", async () => {
    const conflict = await run([httpError("POST", 409, "RESTORE_IN_PROGRESS")], { deadlineMs: 120_000 });
    expect(conflict).toMatchObject({ value: "ok", attempts: 2, sleeps: [60_000] });
  });

  it("retries a non-idempotent request the server rejected with 429", async () => {
    const result = await run([httpError("POST", 429, "TOO_MANY_CONCURRENT_UPLOADS")]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(2);
  });

  it("retries a non-idempotent request whose connection was never opened", async () => {
    const result = await run([transportError("POST", "ECONNREFUSED"), transportError("POST", "UND_ERR_CONNECT_TIMEOUT")]);
    expect(result.value).toBe("ok");
    expect(result.attempts).toBe(3);
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
