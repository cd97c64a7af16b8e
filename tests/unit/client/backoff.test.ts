import { backoffDelay, parseRetryAfter } from "../../../provider/client/backoff";

describe("backoffDelay", () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };

  it("doubles the ceiling with each attempt up to the cap", () => {
    const almostOne = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy, almostOne))).toEqual([99, 199, 399, 799, 999, 999]);
  });

  it("draws uniformly below the ceiling (full jitter)", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0.5))).toEqual([50, 100, 200, 400, 500]);
    expect(backoffDelay(4, policy, () => 0)).toBe(0);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it("reads delta-seconds", () => {
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).toBe(0);
  });

  it("ignores absent and unreadable values", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("5.5", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
  });
});
