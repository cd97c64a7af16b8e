import { SEED_ACCOUNTS, SEED_APPS, SEED_DATABASES, SEED_WORKSPACES } from "../../emulator";
import { zipEntry } from "../../scripts/release/zip";
import { type ApiResponse, type CallOptions, KEYS, caller, expectError, expectSuccess, useEmulator } from "./helpers";

/**
 * The requests the current official clients send, @squarecloud/api 5.0.0 and @squarecloud/blob
 * 2.0.2, over what the API reference covers, replayed as they go out (method, path and query,
 * headers, body) and answered with the fields those clients read. The npm registry this project
 * installs from serves neither version (its newest are 3.8.0 and 1.2.0, which sdk-compat.test.ts
 * drives through their methods), so the requests were taken from the clients run against this
 * emulator through their public methods; emulator/README.md lists the differences kept.
 */

const env = useEmulator();

const HEX40 = /^[0-9a-f]{40}$/;

/** @squarecloud/api 5.0.0: Accept and its User-Agent on every request, application/json on a body. */
function sdkApi(method: string, path: string, options: { json?: unknown; key?: string } = {}): Promise<ApiResponse> {
  const call = caller(env.emu.platformUrl);
  const request: CallOptions = {
    key: options.key ?? KEYS.alice,
    headers: { Accept: "application/json", "User-Agent": "squarecloud-sdk-js/5.0.0" },
    ...(options.json !== undefined ? { json: options.json } : {}),
  };
  return call(method, path, request);
}

/** @squarecloud/blob 2.0.2: only Authorization; a JSON body goes as a plain string (no Content-Type set). */
function sdkBlob(method: string, path: string, options: { body?: string | FormData; key?: string } = {}) {
  return caller(env.emu.blobUrl)(method, path, { key: options.key ?? KEYS.alice, body: options.body });
}

describe("@squarecloud/api 5.0.0's requests", () => {
  test("user.get() and user.snapshots(): the user, plan memory and duration, apps, databases, snapshot entries", async () => {
    const me = expectSuccess(await sdkApi("GET", "/v2/users/me"));
    expect(me.user).toMatchObject({ id: SEED_ACCOUNTS.alice.accountId, name: SEED_ACCOUNTS.alice.name });
    expect(me.user.plan).toMatchObject({
      name: "standard-8",
      memory: { limit: 8192, used: expect.any(Number), available: expect.any(Number) },
      duration: expect.any(Number),
    });
    expect(me.applications.map((a: { id: string }) => a.id)).toContain(SEED_APPS.aliceWebsite);
    expect(me.databases.map((d: { id: string }) => d.id)).toContain(SEED_DATABASES.aliceCache);
    for (const scope of ["applications", "databases"]) {
      const entries = expectSuccess(await sdkApi("GET", `/v2/users/snapshots?scope=${scope}`));
      expect(entries[0]).toEqual({
        name: expect.any(String),
        size: expect.any(Number),
        modified: expect.any(String),
        key: expect.stringContaining("Signature="),
      });
    }
  });

  test("applications.fetch(), deploys.list(), network.analytics(): app fields, nested deployments with branch", async () => {
    const app = expectSuccess(await sdkApi("GET", `/v2/apps/${SEED_APPS.aliceWebsite}`));
    expect(app).toMatchObject({ id: SEED_APPS.aliceWebsite, name: "Alice Website", ram: 512, language: "javascript" });
    const deployments = expectSuccess(await sdkApi("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/deployments`));
    const clone = deployments[0].find((e: { state: string }) => e.state === "clone");
    expect(clone).toEqual({
      id: expect.stringMatching(HEX40),
      state: "clone",
      date: expect.any(String),
      branch: "main",
    });
    // The client sends its optional bounds even when unset.
    const analytics = expectSuccess(
      await sdkApi(
        "GET",
        `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics?start=undefined&end=undefined&range=daily`,
      ),
    );
    expect(Object.keys(analytics)).toContain("visits");
  });

  test("snapshots.list(), create() and download(): the created URL serves the archive", async () => {
    expect(expectSuccess(await sdkApi("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/snapshots`)).length).toBeGreaterThan(
      0,
    );
    const { url, key } = expectSuccess(await sdkApi("POST", `/v2/apps/${SEED_APPS.aliceWebsite}/snapshots`));
    expect(url).toBe(
      `${env.emu.platformUrl}/snapshots/applications/${SEED_ACCOUNTS.alice.accountId}/${SEED_APPS.aliceWebsite}.zip?${key}`,
    );
    const archive = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(zipEntry(archive, "package.json")?.toString()).toContain(SEED_APPS.aliceWebsite);
  });

  test("applications.statusAll() and databases.statusAll() are outside the reference: 404 ROUTE_NOT_FOUND (kept)", async () => {
    expectError(await sdkApi("GET", "/v2/apps/status"), 404, "ROUTE_NOT_FOUND");
    expectError(await sdkApi("GET", "/v2/databases/status"), 404, "ROUTE_NOT_FOUND");
  });

  test("databases: fetch, credentials, snapshots, metrics, update, create", async () => {
    const id = SEED_DATABASES.aliceCache;
    expect(expectSuccess(await sdkApi("GET", `/v2/databases/${id}`))).toEqual({
      id,
      name: "cache",
      owner: SEED_ACCOUNTS.alice.accountId,
      cluster: expect.any(String),
      ram: 512,
      type: "redis",
      port: expect.any(Number),
      created_at: expect.any(String),
    });
    expect(expectSuccess(await sdkApi("GET", `/v2/databases/${id}/credentials/certificate`))).toEqual({
      certificate: expect.any(String),
    });
    const reset = expectSuccess(
      await sdkApi("POST", `/v2/databases/${id}/credentials/reset`, { json: { reset: "password" } }),
    );
    expect(reset.password).toEqual(expect.any(String));
    const [snapshot] = expectSuccess(await sdkApi("GET", `/v2/databases/${id}/snapshots`));
    expect(snapshot.key).toContain("versionId=");
    expect(Array.isArray(expectSuccess(await sdkApi("GET", `/v2/databases/${id}/metrics`)))).toBe(true);
    expectSuccess(await sdkApi("PATCH", `/v2/databases/${id}`, { json: { name: "cache2" } }));
    const created = expectSuccess(
      await sdkApi("POST", "/v2/databases", { json: { name: "sdkdb", memory: 512, type: "redis", version: "7.4.5" } }),
    );
    expect(created).toMatchObject({ name: "sdkdb", type: "redis", password: expect.any(String) });
  });

  test("workspaces: list, fetch, create, the invitee's code, members add/update/remove, apps add/remove, delete", async () => {
    const listed = expectSuccess(await sdkApi("GET", "/v2/workspaces"));
    expect(listed.map((w: { id: string }) => w.id)).toContain(SEED_WORKSPACES.aliceTeam.id);
    expect(expectSuccess(await sdkApi("GET", `/v2/workspaces/${SEED_WORKSPACES.aliceTeam.id}`))).toMatchObject({
      id: SEED_WORKSPACES.aliceTeam.id,
      owner: SEED_ACCOUNTS.alice.accountId,
      members: expect.any(Array),
      applications: expect.any(Array),
      createdAt: expect.any(String),
    });
    const { id: workspaceId } = expectSuccess(await sdkApi("POST", "/v2/workspaces", { json: { name: "sdkws" } }));
    // generateInviteCode() is the caller's own code: the invitee makes it, the owner adds with it.
    const { code } = expectSuccess(await sdkApi("GET", "/v2/workspaces/members/code", { key: KEYS.dave }));
    expectSuccess(await sdkApi("POST", "/v2/workspaces/members", { json: { workspaceId, code, group: "view" } }));
    const memberId = SEED_ACCOUNTS.dave.accountId;
    expectSuccess(
      await sdkApi("PATCH", "/v2/workspaces/members", { json: { workspaceId, memberId, group: "maintain" } }),
    );
    const { members } = expectSuccess(await sdkApi("GET", `/v2/workspaces/${workspaceId}`));
    expect(members).toContainEqual({
      id: memberId,
      name: expect.any(String),
      group: "maintain",
      joinedAt: expect.any(String),
    });
    expectSuccess(await sdkApi("DELETE", "/v2/workspaces/members", { json: { workspaceId, memberId } }));
    expectSuccess(
      await sdkApi("POST", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.aliceBot } }),
    );
    expectSuccess(
      await sdkApi("DELETE", "/v2/workspaces/applications", { json: { workspaceId, appId: SEED_APPS.aliceBot } }),
    );
    expectSuccess(await sdkApi("DELETE", "/v2/workspaces", { json: { workspaceId } }));
  });

  test("an unknown key is 401 ACCESS_DENIED", async () => {
    expectError(await sdkApi("GET", "/v2/users/me", { key: "1-bad" }), 401, "ACCESS_DENIED");
  });
});

describe("@squarecloud/blob 2.0.2's requests", () => {
  test("objects.create(), list(), stats(), delete() of the upload and of an expiring object", async () => {
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(4096, 9)], { type: "image/png" }), "sdk_upload");
    const uploaded = expectSuccess(
      await sdkBlob("POST", "/v1/objects?name=sdk_upload&prefix=sdk", { body: form, key: KEYS.bob }),
    );
    expect(uploaded.id).toMatch(
      new RegExp(`^${SEED_ACCOUNTS.bob.accountId}/sdk/sdk_upload_[a-z0-9]{8}-[0-9a-f]{4}\\.png$`),
    );
    const { objects } = expectSuccess(await sdkBlob("GET", "/v1/objects", { key: KEYS.bob }));
    expect(objects).toEqual([{ id: uploaded.id, size: 4096, created_at: expect.any(String) }]);
    expect(expectSuccess(await sdkBlob("GET", "/v1/account/stats", { key: KEYS.bob }))).toEqual({
      usage: { objects: 1, storage: 4096 },
      plan: { included: expect.any(Number) },
      billing: {
        extraStorage: expect.any(Number),
        storagePrice: expect.any(Number),
        objectsPrice: expect.any(Number),
        totalEstimate: expect.any(Number),
      },
    });
    expectSuccess(
      await sdkBlob("DELETE", "/v1/objects", { body: JSON.stringify({ object: uploaded.id }), key: KEYS.bob }),
    );
    const expiring = `${SEED_ACCOUNTS.alice.accountId}/tmp/export_p9x2m1zt-a8b4-ex7.csv`;
    expect(expectSuccess(await sdkBlob("GET", "/v1/objects")).objects).toContainEqual(
      expect.objectContaining({ id: expiring, expires_at: expect.any(String) }),
    );
    expectSuccess(await sdkBlob("DELETE", "/v1/objects", { body: JSON.stringify({ object: expiring }) }));
  });

  test("an unknown key is 401 ACCESS_DENIED", async () => {
    expectError(await sdkBlob("GET", "/v1/objects", { key: "1-bad" }), 401, "ACCESS_DENIED");
  });
});
