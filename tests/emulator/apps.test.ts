import { SEED_ACCOUNTS, SEED_APPS } from "../../emulator";
import { ANALYTICS_ARRAYS } from "../analytics-arrays";
import { KEYS, expectError, expectSuccess, isoWithMillis, useEmulator } from "./helpers";

const env = useEmulator();
const HOUR = 3_600_000;
describe("GET /v2/apps/{id}", () => {
  test("returns the detail shape, with `language` instead of `lang`", async () => {
    const app = expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}`));
    expect(app).toEqual({
      id: SEED_APPS.aliceWebsite,
      name: "Alice Website",
      desc: "Marketing site",
      owner: SEED_ACCOUNTS.alice.accountId,
      cluster: "florida-1",
      ram: 512,
      language: "javascript",
      domain: "alice-site.squareweb.app",
      custom: "www.alice.example",
      created_at: expect.any(String),
    });
  });

  test("unknown apps and other people's apps are 404 APP_NOT_FOUND", async () => {
    expectError(await env.platform("GET", "/v2/apps/0123456789abcdef0123456789abcdef"), 404, "APP_NOT_FOUND");
    expectError(await env.platform("GET", `/v2/apps/${SEED_APPS.bobPortfolio}`), 404, "APP_NOT_FOUND");
    expectError(
      await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}`, { key: KEYS.carol }),
      404,
      "APP_NOT_FOUND",
    );
  });

  test("members of a workspace that links the app can read it; view members cannot act on it", async () => {
    expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}`, { key: KEYS.dave }));
    expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}/deployments`, { key: KEYS.dave }));
    expectError(
      await env.platform("POST", `/v2/apps/${SEED_APPS.aliceApi}/snapshots`, { key: KEYS.dave }),
      403,
      "PERMISSION_DENIED",
    );
    expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceApi}/snapshots`, { key: KEYS.bob }));
    // Not linked to the workspace: invisible to members.
    expectError(
      await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}`, { key: KEYS.bob }),
      404,
      "APP_NOT_FOUND",
    );
  });
});

describe("GET /v2/apps/{id}/network/analytics", () => {
  test("daily analytics have the ten arrays with 24 hourly visit points", async () => {
    const analytics = expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`));
    expect(Object.keys(analytics).sort()).toEqual([...ANALYTICS_ARRAYS].sort());
    expect(analytics.visits).toHaveLength(24);
    for (const point of analytics.visits) {
      expect(point).toEqual({
        visits: expect.any(Number),
        requests: expect.any(Number),
        bytes: expect.any(Number),
        date: expect.any(String),
      });
      expect(Number.isInteger(point.visits) && Number.isInteger(point.requests) && Number.isInteger(point.bytes)).toBe(
        true,
      );
    }
    for (const name of ANALYTICS_ARRAYS.filter((n) => n !== "visits")) {
      expect(analytics[name].length).toBeGreaterThan(0);
      for (const item of analytics[name]) {
        expect(item).toEqual({
          type: expect.any(String),
          visits: expect.any(Number),
          requests: expect.any(Number),
          bytes: expect.any(Number),
          date: expect.any(String),
        });
      }
    }
    const now = await env.emu.admin.clock();
    const last = Date.parse(analytics.visits[23].date);
    expect(now - last).toBeLessThan(HOUR);
    expect(now - Date.parse(analytics.visits[0].date)).toBeLessThan(24 * HOUR);
  });

  test("weekly analytics have 7 daily points; other ranges are 400 INVALID_RANGE", async () => {
    const weekly = expectSuccess(
      await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}/network/analytics?range=weekly`),
    );
    expect(weekly.visits).toHaveLength(7);
    expectError(
      await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}/network/analytics?range=monthly`),
      400,
      "INVALID_RANGE",
    );
  });

  test("start and end narrow the range to the points they overlap; the text undefined is no bound; a bad one is 400", async () => {
    const path = `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`;
    const whole = expectSuccess(await env.platform("GET", path));
    // The last 3 hourly points: from inside the 22nd hour to the clock.
    const start = new Date(Date.parse(whole.visits[21].date) + 60_000).toISOString();
    const end = new Date(await env.emu.admin.clock()).toISOString();
    const narrowed = expectSuccess(await env.platform("GET", `${path}?start=${start}&end=${end}`));
    expect(narrowed.visits).toEqual(whole.visits.slice(21));
    // As @squarecloud/api 5.0.0 sends a request without bounds.
    const unbounded = expectSuccess(await env.platform("GET", `${path}?start=undefined&end=undefined&range=daily`));
    expect(unbounded.visits).toEqual(whole.visits);
    // A window before any point: nothing to show, as the service answers a window before the app existed.
    const before = expectSuccess(
      await env.platform("GET", `${path}?start=2000-01-01T00:00:00Z&end=2000-01-02T00:00:00Z`),
    );
    expect(before).toEqual({});
    expectError(await env.platform("GET", `${path}?start=yesterday`), 400, "INVALID_RANGE");
  });

  test("apps without a website answer an empty object", async () => {
    expect(expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceBot}/network/analytics`))).toEqual({});
  });

  test("one uncached answer per 10 seconds: inside the window the cached answer comes back", async () => {
    const path = `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`;
    // Five seconds before an hour boundary, so a fresh computation 9 s later would show a new hour.
    const now = await env.emu.admin.clock();
    await env.emu.admin.setClock(Math.ceil(now / HOUR) * HOUR + HOUR - 5_000);
    const first = expectSuccess(await env.platform("GET", path));
    await env.emu.admin.advanceClock(9_000);
    const cached = expectSuccess(await env.platform("GET", path));
    expect(cached).toEqual(first);
    await env.emu.admin.advanceClock(2_000);
    const fresh = expectSuccess(await env.platform("GET", path));
    expect(fresh.visits[23].date).not.toEqual(first.visits[23].date);
  });
});

describe("GET /v2/apps/{id}/deployments", () => {
  test("at most the last 10 deployments of the past 24 hours, newest first, events earliest first", async () => {
    const deployments = expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/deployments`));
    expect(deployments.length).toBeGreaterThan(0);
    expect(deployments.length).toBeLessThanOrEqual(10);
    const now = await env.emu.admin.clock();
    let previousStart = Infinity;
    for (const events of deployments) {
      expect(events.map((e: { state: string }) => e.state)).toEqual([
        "pending",
        "clone",
        expect.stringMatching(/^(success|error)$/),
      ]);
      expect(new Set(events.map((e: { id: string }) => e.id)).size).toBe(1);
      for (const event of events) expect(isoWithMillis(event.date)).toBe(true);
      const dates = events.map((e: { date: string }) => Date.parse(e.date));
      expect([...dates].sort((a, b) => a - b)).toEqual(dates);
      expect(now - dates[0]).toBeLessThan(24 * HOUR);
      expect(dates[0]).toBeLessThan(previousStart);
      previousStart = dates[0];
    }
  });

  test("the 24-hour window follows the emulator clock", async () => {
    await env.emu.admin.advanceClock(25 * HOUR);
    expect(expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/deployments`))).toEqual([]);
  });

  test("unknown app is 404 APP_NOT_FOUND", async () => {
    expectError(
      await env.platform("GET", "/v2/apps/ffffffffffffffffffffffffffffffff/deployments"),
      404,
      "APP_NOT_FOUND",
    );
  });
});

describe("POST /v2/apps/{id}/snapshots", () => {
  test("returns a pre-signed URL and its key, and the snapshot shows up in the listings", async () => {
    const snapshot = expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceBot}/snapshots`));
    expect(snapshot).toEqual({ url: expect.any(String), key: expect.any(String) });
    expect(snapshot.url.endsWith(`?${snapshot.key}`)).toBe(true);
    expect(snapshot.url).toContain(`${SEED_ACCOUNTS.alice.accountId}/${SEED_APPS.aliceBot}.zip`);
    expect(Number(new URLSearchParams(snapshot.key).get("Expires")) * 1000).toBeGreaterThan(
      await env.emu.admin.clock(),
    );
    const listing = expectSuccess(await env.platform("GET", "/v2/users/snapshots"));
    expect(listing[0].name).toBe(SEED_APPS.aliceBot);
    const perApp = expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceBot}/snapshots`));
    expect(perApp).toHaveLength(1);
  });

  test("one per 5 seconds per account: 429 KEEP_CALM inside the window", async () => {
    expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceWebsite}/snapshots`));
    expectError(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceApi}/snapshots`), 429, "KEEP_CALM");
    await env.emu.admin.advanceClock(5_000);
    expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceApi}/snapshots`));
  });

  test("(plan RAM / 256) * 2 per 24 h per account: 429 DAILY_SNAPSHOTS_LIMIT_REACHED past the quota", async () => {
    // carol's free plan has 1024 MB: 8 snapshots a day.
    const path = `/v2/apps/${SEED_APPS.carolBot}/snapshots`;
    for (let i = 0; i < 8; i++) {
      expectSuccess(await env.platform("POST", path, { key: KEYS.carol }));
      await env.emu.admin.advanceClock(6_000);
    }
    expectError(await env.platform("POST", path, { key: KEYS.carol }), 429, "DAILY_SNAPSHOTS_LIMIT_REACHED");
    // Other accounts keep their own quota.
    expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceBot}/snapshots`));
    await env.emu.admin.advanceClock(24 * HOUR);
    expectSuccess(await env.platform("POST", path, { key: KEYS.carol }));
  });
});

describe("PATCH /v2/apps/{id}/files", () => {
  const path = `/v2/apps/${SEED_APPS.aliceWebsite}/files`;

  test("renames and moves files; the old path is gone afterwards", async () => {
    expectSuccess(await env.platform("PATCH", path, { json: { path: "index.js", to: "main.js" } }));
    expectError(
      await env.platform("PATCH", path, { json: { path: "index.js", to: "other.js" } }),
      404,
      "FILE_NOT_FOUND",
    );
    expectSuccess(await env.platform("PATCH", path, { json: { path: "/main.js", to: "/src/main.js" } }));
    expectSuccess(await env.platform("PATCH", path, { json: { path: "src/main.js", to: "src/routes/main.js" } }));
  });

  test("a missing destination directory is 404 DIRECTORY_NOT_FOUND", async () => {
    expectError(
      await env.platform("PATCH", path, { json: { path: "index.js", to: "nowhere/index.js" } }),
      404,
      "DIRECTORY_NOT_FOUND",
    );
    // Nothing moved.
    expectSuccess(await env.platform("PATCH", path, { json: { path: "index.js", to: "index2.js" } }));
  });

  test("paths escaping the app root, empty or missing paths are 400 INVALID_PATH", async () => {
    for (const body of [
      { path: "../etc/passwd", to: "x.js" },
      { path: "index.js", to: "../../x.js" },
      { path: "", to: "x.js" },
      { path: "index.js" },
      { path: 3, to: "x.js" },
      { path: "index.js", to: "src/" },
    ]) {
      expectError(await env.platform("PATCH", path, { json: body }), 400, "INVALID_PATH");
    }
  });

  test("view members may not move files", async () => {
    expectError(
      await env.platform("PATCH", `/v2/apps/${SEED_APPS.aliceApi}/files`, {
        key: KEYS.dave,
        json: { path: "README.md", to: "READ.md" },
      }),
      403,
      "PERMISSION_DENIED",
    );
  });
});
