import { SEED_APPS, SEED_DATABASES, SEED_DATABASE_SNAPSHOT_VERSIONS } from "../../../emulator";
import type { WorkspaceMemberOutputs } from "../../../provider/kinds/workspace-member";
import type { WorkspaceOutputs } from "../../../provider/kinds/workspace";
import type { DatabaseOutputs } from "../../../provider/kinds/database";
import { AccountLimits } from "../../../provider/client/pacing";
import { appFileMoveHandler } from "../../../provider/resources/app-file-move";
import { appSnapshotHandler } from "../../../provider/resources/app-snapshot";
import { databaseHandler } from "../../../provider/resources/database";
import { databaseRestoreHandler } from "../../../provider/resources/database-restore";
import { workspaceHandler } from "../../../provider/resources/workspace";
import { workspaceMemberHandler } from "../../../provider/resources/workspace-member";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// Every operation, through its handler against the emulator, meets the two answers that say a
// request was not done: a 429 (with Retry-After), then a 503 after which the service shows
// nothing. Each is sent again by the client's one rule, within its attempts and waits, and done
// exactly once. A restore is the one exception to the 503: nothing can show whether one started.

const env = providerAgainstEmulator();
const PROVIDER = "serialized-stub";

/** The next two requests of this route are answered 429 (Retry-After 1 s), then 503; the third is served. */
async function refuseTwice(method: string, path: string): Promise<void> {
  const match = { method, path };
  await env.emulator.admin.injectFault({
    match,
    kind: "status",
    status: 429,
    code: "TOO_MANY_REQUESTS",
    retryAfter: "1",
    count: 1,
  });
  await env.emulator.admin.injectFault({ match, kind: "status", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 });
}

/** The requests of one route, as the emulator logged them: status and X-Attempt, in order. */
async function sent(route: string) {
  return (await env.emulator.admin.requests())
    .filter((request) => request.route === route)
    .map((request) => ({ status: request.status, attempt: request.attempt ?? 1, at: Date.parse(request.at) }));
}

/** Refused twice, then served: each a further attempt of one call. */
async function expectSentThrice(route: string): Promise<void> {
  expect((await sent(route)).map(({ status, attempt }) => [status, attempt])).toEqual([
    [429, 1],
    [503, 2],
    [expect.any(Number), 3],
  ]);
  expect(await env.emulator.admin.faults()).toEqual([]);
}

const redis = (name: string, memory = 512) => ({
  name,
  type: "redis" as const,
  memory,
  version: "7.4.5",
  __provider: PROVIDER,
});

async function codeOf(index: number): Promise<string> {
  const client = env.clientOf(index);
  try {
    return await client.getInviteCode();
  } finally {
    await client.close();
  }
}

describe("an answer that proves nothing was done is sent again, and the work done once", () => {
  test("database: create, resize, delete", async () => {
    await refuseTwice("POST", "/v2/databases");
    const { id, outs } = await databaseHandler.create(redis("refused"));
    await expectSentThrice("POST /v2/databases");
    // The answer of the one that was done, so the password is in hand.
    expect(outs.password).toEqual(expect.any(String));
    expect((await env.api.listDatabases()).filter((db) => db.name === "refused").map((db) => db.id)).toEqual([id]);

    await env.emulator.admin.clearRequests();
    await refuseTwice("PATCH", "/v2/databases/:id");
    const resized = await databaseHandler.update(id, outs as DatabaseOutputs, redis("refused", 1024));
    await expectSentThrice("PATCH /v2/databases/:id");
    expect((await env.api.getDatabase(id)).ram).toBe(1024);

    await env.emulator.admin.clearRequests();
    await refuseTwice("DELETE", "/v2/databases/:id");
    await databaseHandler.delete(id, resized.outs as DatabaseOutputs);
    await expectSentThrice("DELETE /v2/databases/:id");
    await expect(env.api.getDatabase(id)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
    expect(env.warnings).toEqual([]);
  });

  test("workspace: create, link, member add, group change, removal, delete", async () => {
    await refuseTwice("POST", "/v2/workspaces");
    await refuseTwice("POST", "/v2/workspaces/applications");
    const { id, outs } = await workspaceHandler.create({
      name: "refused_team",
      applications: [SEED_APPS.aliceApi],
      __provider: PROVIDER,
    });
    await expectSentThrice("POST /v2/workspaces");
    await expectSentThrice("POST /v2/workspaces/applications");
    expect((await env.api.listWorkspaces()).filter((w) => w.name === "refused_team").map((w) => w.id)).toEqual([id]);
    expect((await env.api.getWorkspace(id)).applications.map((app) => app.id)).toEqual([SEED_APPS.aliceApi]);

    const bob = env.emulator.accounts[1].accountId;
    const member = (group: string, inviteCode?: string) => ({
      workspaceId: id,
      group,
      inviteCode,
      userId: bob,
      __provider: PROVIDER,
    });
    await refuseTwice("POST", "/v2/workspaces/members");
    const added = await workspaceMemberHandler.create(member("view", await codeOf(1)));
    await expectSentThrice("POST /v2/workspaces/members");
    await refuseTwice("PATCH", "/v2/workspaces/members");
    const regrouped = await workspaceMemberHandler.update(
      added.id,
      added.outs as WorkspaceMemberOutputs,
      member("admin"),
    );
    await expectSentThrice("PATCH /v2/workspaces/members");
    expect((await env.api.getWorkspace(id)).members.find((m) => m.id === bob)?.group).toBe("admin");
    await refuseTwice("DELETE", "/v2/workspaces/members");
    await workspaceMemberHandler.delete(added.id, regrouped.outs as WorkspaceMemberOutputs);
    await expectSentThrice("DELETE /v2/workspaces/members");
    expect((await env.api.getWorkspace(id)).members.map((m) => m.id)).not.toContain(bob);

    await refuseTwice("DELETE", "/v2/workspaces");
    await workspaceHandler.delete(id, outs as WorkspaceOutputs);
    await expectSentThrice("DELETE /v2/workspaces");
    await expect(env.api.getWorkspace(id)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
    expect(env.warnings).toEqual([]);
  });

  test("app snapshot: one taken, each sending within the API's rate of one per 5 s", async () => {
    const before = (await env.api.listSnapshots()).filter((s) => s.name === SEED_APPS.aliceBot).length;
    await refuseTwice("POST", "/v2/apps/:id/snapshots");
    const { outs } = await appSnapshotHandler.create({ appId: SEED_APPS.aliceBot });
    await expectSentThrice("POST /v2/apps/:id/snapshots");
    // The answer of the one taken: its download URL is in hand, not only the listing's key.
    expect(outs.url).toEqual(expect.stringContaining(outs.key));
    expect((await env.api.listSnapshots()).filter((s) => s.name === SEED_APPS.aliceBot)).toHaveLength(before + 1);
    const times = (await sent("POST /v2/apps/:id/snapshots")).map((request) => request.at);
    for (let i = 1; i < times.length; i++)
      expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(AccountLimits.APP_SNAPSHOT_INTERVAL_MS);
    expect(env.warnings).toEqual([]);
  });

  test("file move: moved once", async () => {
    await refuseTwice("PATCH", "/v2/apps/:id/files");
    await appFileMoveHandler.create({ appId: SEED_APPS.aliceWebsite, path: "index.js", to: "main.js" });
    await expectSentThrice("PATCH /v2/apps/:id/files");
    await expect(
      env.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "main.js", to: "main.js" }),
    ).resolves.toBeUndefined();
    expect(env.warnings).toEqual([]);
  });

  test("restore: a 429 is sent again; after a 503 it is not, since nothing shows whether a restore started", async () => {
    await refuseTwice("POST", "/v2/databases/:id/snapshots/restore");
    const version = SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache[0];
    await expect(
      databaseRestoreHandler.create({
        databaseId: SEED_DATABASES.aliceCache,
        snapshotId: SEED_DATABASES.aliceCache,
        versionId: version,
        confirm: true,
      }),
    ).rejects.toThrow(/SERVICE_UNAVAILABLE\), so the restore may have started\. It is not sent again/);
    expect(
      (await sent("POST /v2/databases/:id/snapshots/restore")).map(({ status, attempt }) => [status, attempt]),
    ).toEqual([
      [429, 1],
      [503, 2],
    ]);
  });
});
