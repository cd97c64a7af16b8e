import { spawn } from "node:child_process";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import {
  SEED_ACCOUNTS,
  SEED_APPS,
  SEED_BLOB_OBJECTS,
  SEED_DATABASES,
  SEED_WORKSPACES,
  startEmulator,
  type RunningEmulator,
} from "../../emulator";
import { adminRoutes } from "../../emulator/routes";
import { caller, expectSuccess, KEYS, useEmulator, waitForOutput, type ApiResponse, type Caller } from "./helpers";

// The emulator's own safety: reachable from this machine only unless told otherwise, its keyless
// admin surface off unless enabled, and no account able to read or change another's objects.

const CLI = join(__dirname, "..", "..", "emulator", "cli.js");

/**
 * A request each admin route would accept when on, keyed "METHOD template": the path with its
 * parameters and query filled in, and a body. The table below is built from the emulator's own
 * route list, so a route added there without a sample here fails the test.
 */
const ADMIN_SAMPLES: Record<string, { path?: string; body?: unknown | ((base: string) => unknown) }> = {
  "POST /__emulator/reset": {},
  "GET /__emulator/clock": {},
  "POST /__emulator/clock": { body: { advanceMs: 1000 } },
  "GET /__emulator/faults": {},
  "POST /__emulator/faults": { body: { match: { path: "/v2/users/me" }, kind: "status", status: 500, count: 1 } },
  "DELETE /__emulator/faults": {},
  "POST /__emulator/faults/seed": { body: { seed: "safety" } },
  "POST /__emulator/faults/release": {},
  "GET /__emulator/faults/wait": { path: "/__emulator/faults/wait?timeoutMs=1" },
  "GET /__emulator/requests": {},
  "GET /__emulator/requests/wait": { path: "/__emulator/requests/wait?route=GET%20/v2/users/me&count=1&timeoutMs=1" },
  "DELETE /__emulator/requests": {},
  "GET /__emulator/counters": {},
  "POST /__emulator/plan": { body: { accountId: SEED_ACCOUNTS.dave.accountId, plan: "enterprise-32" } },
  // Names are unique: each server adds its own account.
  "POST /__emulator/accounts": { body: (base: string) => ({ name: `safety_${new URL(base).port}` }) },
  "POST /__emulator/accounts/:id/api-key": { path: `/__emulator/accounts/${SEED_ACCOUNTS.dave.accountId}/api-key` },
  "GET /__emulator/uploads": {},
  "POST /__emulator/object-ids": { body: { form: "plain" } },
};

/** Every route of the admin surface with its sample (a row of each is whole: jest reads a short row as a callback-style test). */
const ADMIN_ROUTES: [method: string, path: string, body: unknown][] = adminRoutes.map(({ method, template }) => {
  const sample = ADMIN_SAMPLES[`${method} ${template}`];
  if (!sample) throw new Error(`No sample request for the admin route ${method} ${template}: add one to ADMIN_SAMPLES`);
  return [method, sample.path ?? template, sample.body];
});

/** An IPv4 address of this machine other than loopback, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((nic) => nic && nic.family === "IPv4" && !nic.internal)?.address;
}

/** Whether a TCP connection to address:port is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

async function runCli(
  args: string[],
  check: (urls: { platformUrl: string; blobUrl: string }) => Promise<void>,
): Promise<void> {
  const child = spawn(process.execPath, [CLI, "--platform-port", "0", "--blob-port", "0", ...args]);
  try {
    const output = await waitForOutput(child, "Ctrl+C");
    const platformUrl = /platform API\s+(http:\/\/\S+)/.exec(output)![1];
    const blobUrl = /blob API\s+(http:\/\/\S+)/.exec(output)![1];
    await check({ platformUrl, blobUrl });
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

describe("listening address", () => {
  const external = externalAddress();

  test("startEmulator listens on loopback only unless a host is given", async () => {
    const local = await startEmulator();
    const open = await startEmulator({ host: "0.0.0.0" });
    try {
      for (const url of [local.platformUrl, local.blobUrl]) {
        expect(new URL(url).hostname).toBe("127.0.0.1");
        expect(await accepts("127.0.0.1", portOf(url))).toBe(true);
        if (external) expect(await accepts(external, portOf(url))).toBe(false);
      }
      // The same probe reaches an emulator told to listen everywhere: the check above can fail.
      if (external) expect(await accepts(external, portOf(open.platformUrl))).toBe(true);
    } finally {
      await Promise.all([local.close(), open.close()]);
    }
  });

  test("the CLI listens on loopback only unless --host is given", async () => {
    await runCli([], async ({ platformUrl, blobUrl }) => {
      for (const url of [platformUrl, blobUrl]) {
        expect(new URL(url).hostname).toBe("127.0.0.1");
        if (external) expect(await accepts(external, portOf(url))).toBe(false);
      }
    });
    if (external) {
      await runCli(["--host", "0.0.0.0"], async ({ platformUrl }) => {
        expect(await accepts(external, portOf(platformUrl))).toBe(true);
      });
    }
  });
});

describe("admin surface", () => {
  let off: RunningEmulator;
  let on: RunningEmulator;
  beforeAll(async () => {
    [off, on] = await Promise.all([startEmulator(), startEmulator({ admin: true })]);
  });
  afterAll(async () => {
    await Promise.all([off?.close(), on?.close()]);
  });

  test.each(ADMIN_ROUTES)(
    "off by default: %s %s answers 404 on both servers and changes nothing",
    async (method, path, body) => {
      const clockBefore = Date.now();
      for (const base of [off.platformUrl, off.blobUrl]) {
        const json = typeof body === "function" ? body(base) : body;
        const response = await caller(base)(method, path, { key: null, ...(json === undefined ? {} : { json }) });
        expect({ status: response.status, code: response.body?.code }).toEqual({
          status: 404,
          code: "ROUTE_NOT_FOUND",
        });
      }
      // Nothing it would have done happened: no fault was armed, the API still answers normally
      // with a clock near real time.
      const me = await caller(off.platformUrl)("GET", "/v2/users/me");
      expectSuccess(me);
      expect(Math.abs(Date.parse(me.headers.get("date")!) - clockBefore)).toBeLessThan(60_000);
      // Dave's key was not rotated.
      expectSuccess(await caller(off.platformUrl)("GET", "/v2/users/me", { key: KEYS.dave }));
    },
  );

  test.each(ADMIN_ROUTES)("on when enabled: %s %s is served on both servers", async (method, path, body) => {
    for (const base of [on.platformUrl, on.blobUrl]) {
      const json = typeof body === "function" ? body(base) : body;
      const response = await caller(base)(method, path, { key: null, ...(json === undefined ? {} : { json }) });
      // The wait routes time out at once (408) here; what matters is that the route exists.
      expect([200, 408]).toContain(response.status);
    }
    await on.admin.clearFaults();
  });
});

describe("one account can never read or change another account's objects", () => {
  const env = useEmulator();
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  let dave: Caller;
  let aliceBlob: Caller;
  let bobBlob: Caller;
  beforeAll(() => {
    const as =
      (base: () => string, key: string): Caller =>
      (method, path, options = {}) =>
        caller(base())(method, path, { key, ...options });
    alice = as(() => env.emu.platformUrl, KEYS.alice);
    bob = as(() => env.emu.platformUrl, KEYS.bob);
    carol = as(() => env.emu.platformUrl, KEYS.carol);
    dave = as(() => env.emu.platformUrl, KEYS.dave);
    aliceBlob = as(() => env.emu.blobUrl, KEYS.alice);
    bobBlob = as(() => env.emu.blobUrl, KEYS.bob);
  });

  function refused(response: ApiResponse, status: number, code: string): void {
    expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  }

  test("apps: another account's app cannot be read, snapshotted, analysed or have its files moved", async () => {
    const app = SEED_APPS.aliceWebsite;
    const before = expectSuccess(await alice("GET", `/v2/apps/${app}`));
    const snapshotsBefore = withoutKeys(expectSuccess(await alice("GET", "/v2/users/snapshots")));
    for (const stranger of [bob, carol, dave]) {
      refused(await stranger("GET", `/v2/apps/${app}`), 404, "APP_NOT_FOUND");
      refused(await stranger("GET", `/v2/apps/${app}/network/analytics`), 404, "APP_NOT_FOUND");
      refused(await stranger("GET", `/v2/apps/${app}/deployments`), 404, "APP_NOT_FOUND");
      refused(await stranger("GET", `/v2/apps/${app}/snapshots`), 404, "APP_NOT_FOUND");
      refused(await stranger("POST", `/v2/apps/${app}/snapshots`), 404, "APP_NOT_FOUND");
      refused(
        await stranger("PATCH", `/v2/apps/${app}/files`, { json: { path: "index.js", to: "moved.js" } }),
        404,
        "APP_NOT_FOUND",
      );
      const me = expectSuccess(await stranger("GET", "/v2/users/me"));
      expect(me.applications.map((a: { id: string }) => a.id)).not.toContain(app);
    }
    expect(expectSuccess(await alice("GET", `/v2/apps/${app}`))).toEqual(before);
    expect(withoutKeys(expectSuccess(await alice("GET", "/v2/users/snapshots")))).toEqual(snapshotsBefore);
    // The file is still where it was: its owner can move it.
    expectSuccess(await alice("PATCH", `/v2/apps/${app}/files`, { json: { path: "index.js", to: "moved.js" } }));
  });

  test("apps shared through a workspace: a view member reads but cannot snapshot or move files", async () => {
    const app = SEED_APPS.aliceApi;
    expectSuccess(await dave("GET", `/v2/apps/${app}`));
    refused(await dave("POST", `/v2/apps/${app}/snapshots`), 403, "PERMISSION_DENIED");
    refused(
      await dave("PATCH", `/v2/apps/${app}/files`, { json: { path: "README.md", to: "moved.md" } }),
      403,
      "PERMISSION_DENIED",
    );
    expectSuccess(await alice("PATCH", `/v2/apps/${app}/files`, { json: { path: "README.md", to: "moved.md" } }));
  });

  test("databases: another account's database cannot be read, resized, renamed, reset, restored or deleted", async () => {
    const id = SEED_DATABASES.aliceCache;
    const before = expectSuccess(await alice("GET", `/v2/databases/${id}`));
    const [version] = expectSuccess(await alice("GET", `/v2/databases/${id}/snapshots`)).map((entry: { key: string }) =>
      new URLSearchParams(entry.key).get("versionId"),
    );
    for (const stranger of [bob, carol, dave]) {
      refused(await stranger("GET", `/v2/databases/${id}`), 404, "DATABASE_NOT_FOUND");
      refused(
        await stranger("PATCH", `/v2/databases/${id}`, { json: { name: "stolen", ram: 2048 } }),
        404,
        "DATABASE_NOT_FOUND",
      );
      refused(await stranger("GET", `/v2/databases/${id}/metrics`), 404, "DATABASE_NOT_FOUND");
      refused(await stranger("GET", `/v2/databases/${id}/credentials/certificate`), 404, "DATABASE_NOT_FOUND");
      refused(
        await stranger("POST", `/v2/databases/${id}/credentials/reset`, { json: { reset: "password" } }),
        404,
        "DATABASE_NOT_FOUND",
      );
      refused(await stranger("GET", `/v2/databases/${id}/snapshots`), 404, "DATABASE_NOT_FOUND");
      refused(
        await stranger("POST", `/v2/databases/${id}/snapshots/restore`, {
          json: { snapshotId: id, versionId: version },
        }),
        404,
        "DATABASE_NOT_FOUND",
      );
      refused(await stranger("DELETE", `/v2/databases/${id}`), 404, "DATABASE_NOT_FOUND");
      const me = expectSuccess(await stranger("GET", "/v2/users/me"));
      expect(me.databases.map((d: { id: string }) => d.id)).not.toContain(id);
    }
    expect(expectSuccess(await alice("GET", `/v2/databases/${id}`))).toEqual(before);
    // No restore was started by anyone: the owner's own restore is not held back by a 60 s window.
    expectSuccess(
      await alice("POST", `/v2/databases/${id}/snapshots/restore`, { json: { snapshotId: id, versionId: version } }),
    );
  });

  test("snapshots: a listing holds the caller's own snapshots only", async () => {
    const aliceApps = expectSuccess(await alice("GET", "/v2/users/snapshots"));
    const aliceDbs = expectSuccess(await alice("GET", "/v2/users/snapshots?scope=databases"));
    const aliceOwned = new Set([...aliceApps, ...aliceDbs].map((entry: { name: string }) => entry.name));
    expect(aliceOwned.size).toBeGreaterThan(0);
    for (const stranger of [bob, carol, dave]) {
      for (const scope of ["applications", "databases"]) {
        const entries = expectSuccess(await stranger("GET", `/v2/users/snapshots?scope=${scope}`));
        expect(entries.filter((entry: { name: string }) => aliceOwned.has(entry.name))).toEqual([]);
      }
    }
  });

  test("workspaces: a stranger cannot see, join, delete, or manage members and links of another's workspace", async () => {
    const workspaceId = SEED_WORKSPACES.aliceTeam.id;
    const before = expectSuccess(await alice("GET", `/v2/workspaces/${workspaceId}`));
    const carolCode = expectSuccess(await carol("GET", "/v2/workspaces/members/code")).code;
    refused(await carol("GET", `/v2/workspaces/${workspaceId}`), 404, "WORKSPACE_NOT_FOUND");
    expect(expectSuccess(await carol("GET", "/v2/workspaces"))).toEqual([]);
    refused(
      await carol("POST", "/v2/workspaces/members", { json: { workspaceId, code: carolCode, group: "admin" } }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
    refused(
      await carol("PATCH", "/v2/workspaces/members", {
        json: { workspaceId, memberId: SEED_ACCOUNTS.bob.accountId, group: "view" },
      }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
    refused(
      await carol("DELETE", "/v2/workspaces/members", {
        json: { workspaceId, memberId: SEED_ACCOUNTS.dave.accountId },
      }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
    refused(
      await carol("POST", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.carolBot } }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
    refused(
      await carol("DELETE", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.aliceApi } }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
    refused(await carol("DELETE", "/v2/workspaces/leave", { json: { workspaceId } }), 404, "WORKSPACE_NOT_FOUND");
    refused(await carol("DELETE", "/v2/workspaces", { json: { workspaceId } }), 404, "WORKSPACE_NOT_FOUND");
    expect(expectSuccess(await alice("GET", `/v2/workspaces/${workspaceId}`))).toEqual(before);
  });

  test("workspaces: a view member cannot change groups, remove members, link or unlink apps, or delete it", async () => {
    const workspaceId = SEED_WORKSPACES.aliceTeam.id;
    const before = expectSuccess(await alice("GET", `/v2/workspaces/${workspaceId}`));
    refused(
      await dave("PATCH", "/v2/workspaces/members", {
        json: { workspaceId, memberId: SEED_ACCOUNTS.bob.accountId, group: "view" },
      }),
      403,
      "PERMISSION_DENIED",
    );
    refused(
      await dave("DELETE", "/v2/workspaces/members", { json: { workspaceId, memberId: SEED_ACCOUNTS.bob.accountId } }),
      403,
      "PERMISSION_DENIED",
    );
    refused(
      await dave("DELETE", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.aliceApi } }),
      403,
      "PERMISSION_DENIED",
    );
    refused(await dave("DELETE", "/v2/workspaces", { json: { workspaceId } }), 403, "PERMISSION_DENIED");
    // Linking is the owner's: an admin cannot link (even the owner's app), nor delete the workspace.
    refused(
      await bob("POST", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.aliceWebsite } }),
      403,
      "PERMISSION_DENIED",
    );
    refused(
      await bob("POST", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.bobPortfolio } }),
      403,
      "PERMISSION_DENIED",
    );
    refused(await bob("DELETE", "/v2/workspaces", { json: { workspaceId } }), 403, "PERMISSION_DENIED");
    expect(expectSuccess(await alice("GET", `/v2/workspaces/${workspaceId}`))).toEqual(before);
  });

  test("blob objects and stats: another account's objects are not listed, counted or deletable", async () => {
    const aliceIds = expectSuccess(await aliceBlob("GET", "/v1/objects")).objects.map((o: { id: string }) => o.id);
    expect(aliceIds).toEqual(expect.arrayContaining(Object.values(SEED_BLOB_OBJECTS)));
    const aliceStats = expectSuccess(await aliceBlob("GET", "/v1/account/stats"));
    expect(expectSuccess(await bobBlob("GET", "/v1/objects")).objects).toEqual([]);
    expect(expectSuccess(await bobBlob("GET", "/v1/objects?prefix=images")).objects).toEqual([]);
    expect(expectSuccess(await bobBlob("GET", "/v1/account/stats")).usage).toEqual({ objects: 0, storage: 0 });
    const deleted = await bobBlob("DELETE", "/v1/objects", { json: { object: SEED_BLOB_OBJECTS.aliceLogo } });
    expect([400, 404]).toContain(deleted.status);
    expect(deleted.body?.status).toBe("error");
    expect(expectSuccess(await aliceBlob("GET", "/v1/objects")).objects.map((o: { id: string }) => o.id)).toEqual(
      aliceIds,
    );
    expect(expectSuccess(await aliceBlob("GET", "/v1/account/stats"))).toEqual(aliceStats);
  });

  test("analytics and metrics: readable by the owner, refused to anyone else", async () => {
    expectSuccess(await alice("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics?range=weekly`));
    expectSuccess(await alice("GET", `/v2/databases/${SEED_DATABASES.aliceMain}/metrics`));
    for (const stranger of [bob, carol, dave]) {
      refused(
        await stranger("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics?range=weekly`),
        404,
        "APP_NOT_FOUND",
      );
      refused(await stranger("GET", `/v2/databases/${SEED_DATABASES.aliceMain}/metrics`), 404, "DATABASE_NOT_FOUND");
    }
    refused(await alice("GET", `/v2/databases/${SEED_DATABASES.bobLegacy}/metrics`), 404, "DATABASE_NOT_FOUND");
  });
});

/** Snapshot entries without their pre-signed keys, which are signed anew (with a new expiry) at each listing. */
function withoutKeys(entries: { key: string }[]): object[] {
  return entries.map(({ key: _key, ...entry }) => entry);
}
