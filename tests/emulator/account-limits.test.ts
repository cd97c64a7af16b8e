import { parseRequestRate } from "../../emulator/models/request-rate";
import { KEYS, expectError, expectSuccess, useEmulator } from "./helpers";

// The emulator started with an account-wide request rate (3 per 10 s), and the accounts the admin
// surface adds: what many stacks of one account at once meet (bench/parallel-stacks.ts).
const env = useEmulator({ requestRate: { requests: 3, windowMs: 10_000 } });

describe("account-wide request rate", () => {
  test("past the rate, 429 RATE_LIMIT_EXCEEDED with Retry-After until the window frees a slot", async () => {
    for (let i = 0; i < 3; i++) expectSuccess(await env.platform("GET", "/v2/users/me"));
    // Counted per account over both APIs and every connection.
    const refused = await env.blob("GET", "/v1/account/stats");
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(10);
    // Another key has its own window.
    expectSuccess(await env.platform("GET", "/v2/users/me", { key: KEYS.bob }));
    await env.emu.admin.advanceClock(10_001);
    expectSuccess(await env.platform("GET", "/v2/users/me"));
  });

  test("a refused request takes no slot: it frees when the admitted ones leave the window", async () => {
    for (let i = 0; i < 3; i++) expectSuccess(await env.platform("GET", "/v2/users/me"));
    await env.emu.admin.advanceClock(5_000);
    expectError(await env.platform("GET", "/v2/users/me"), 429, "RATE_LIMIT_EXCEEDED");
    await env.emu.admin.advanceClock(5_001);
    for (let i = 0; i < 3; i++) expectSuccess(await env.platform("GET", "/v2/users/me"));
  });

  test("the CLI's form: <requests>/<seconds>s", () => {
    expect(parseRequestRate("50/1s")).toEqual({ requests: 50, windowMs: 1000 });
    expect(parseRequestRate("600/60s")).toEqual({ requests: 600, windowMs: 60_000 });
    for (const bad of ["50", "0/1s", "50/0s", "50/1m", "-1/1s"]) expect(parseRequestRate(bad)).toBeUndefined();
  });
});

describe("accounts added by the admin surface", () => {
  test("authenticate with their key, hand out invite codes, and go at reset", async () => {
    const added = await env.emu.admin.createAccount("erin_ops");
    expect(added).toEqual({
      accountId: expect.stringMatching(/^\d{18}$/),
      apiKey: expect.stringMatching(new RegExp(`^${added.accountId}-[0-9a-f]{40}$`)),
      name: "erin_ops",
      email: "erin_ops@example.com",
    });
    const user = expectSuccess(await env.platform("GET", "/v2/users/me", { key: added.apiKey })).user;
    expect(user).toMatchObject({ id: added.accountId, name: "erin_ops", plan: { name: "standard-4" } });
    const { code } = expectSuccess(await env.platform("GET", "/v2/workspaces/members/code", { key: added.apiKey }));
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    await env.emu.admin.reset();
    expectError(await env.platform("GET", "/v2/users/me", { key: added.apiKey }), 401, "ACCESS_DENIED");
  });

  test("a name taken, malformed, or a plan unknown is refused", async () => {
    await env.emu.admin.createAccount("erin_ops");
    await expect(env.emu.admin.createAccount("erin_ops")).rejects.toThrow(/INVALID_ACCOUNT/);
    await expect(env.emu.admin.createAccount("x")).rejects.toThrow(/INVALID_ACCOUNT/);
    await expect(env.emu.admin.createAccount("frank_ops", "platinum")).rejects.toThrow(/INVALID_ACCOUNT/);
  });
});
