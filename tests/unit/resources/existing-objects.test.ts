import { sessionOf } from "../../../provider/functions/session";
import { getAccount } from "../../../provider/functions/account";
import { getApp } from "../../../provider/functions/apps";
import { getWorkspace } from "../../../provider/functions/workspaces";
import { runFunction } from "../../../provider/functions/declaration";
import { providerConfig } from "../../../provider/runtime";
import { blobObjectHandler } from "../../../provider/resources/blob-object";
import { databaseHandler } from "../../../provider/resources/database";
import { workspaceHandler } from "../../../provider/resources/workspace";
import { workspaceMemberHandler } from "../../../provider/resources/workspace-member";
import { reply, StubServer } from "../helpers/stub-server";

// The service holds what its spec would refuse at create: the official SDK's own tests make a
// database "sdk-test-db" of 256 MB and a workspace "sdk-test-ws". Reading, refreshing and
// importing such an object must work; only what the provider creates or changes follows the spec.
// The answers are shaped as the official clients' types allow (camelCase timestamps, a member
// without a display name, a listed database's `ram`, refusals under the codes' old names).

const at = "2026-11-20T10:00:00.000Z";
const ACCOUNT = "1";
const DATABASE = {
  id: "d1",
  name: "sdk-test-db",
  owner: ACCOUNT,
  cluster: "florida-1",
  ram: 256,
  type: "redis",
  port: 7000,
};
const WORKSPACE_ID = "0123456789abcdef0123456789abcdef01234567";
const WORKSPACE = {
  id: WORKSPACE_ID,
  name: "sdk-test-ws",
  owner: ACCOUNT,
  createdAt: at,
  members: [
    { id: ACCOUNT, name: "Ana", group: "owner", joinedAt: at },
    { id: "2", name: null, group: "view", joined_at: at },
  ],
  applications: [{ id: "a1", name: "sdk-test-app", desc: null, ram: 256, lang: "python", domain: null, custom: null }],
};
const APP = { id: "a1", name: "sdk-test-app", ram: 256, lang: "python", cluster: "florida-1", createdAt: at };
const OBJECT_ID = `${ACCOUNT}/sdk-test/x_lxch4k7y-07ee.txt`;

const routes: Record<string, unknown> = {
  "GET /v2/users/me": {
    user: {
      id: ACCOUNT,
      name: "Ana",
      email: "a@b.c",
      plan: { name: "free", memory: { limit: 1, available: 1, used: 0 } },
    },
    applications: [APP],
    databases: [{ ...DATABASE, createdAt: at, connection_url: "redis://default:pw@db:7000" }],
  },
  "GET /v2/apps/a1": { ...APP, owner: ACCOUNT, language: "python", domain: null, custom: null },
  "GET /v2/databases/d1": { ...DATABASE, created_at: at },
  "GET /v2/databases/d1/credentials/certificate": { certificate: "Y2VydA==" },
  "GET /v2/workspaces": [WORKSPACE],
  [`GET /v2/workspaces/${WORKSPACE_ID}`]: WORKSPACE,
  "GET /v1/objects": { objects: [{ id: OBJECT_ID, size: 2048, createdAt: at }] },
};

/** Refusals under the names the service used before it renamed its codes. */
const refusals: Record<string, [status: number, code: string]> = {
  "GET /v2/workspaces/gone": [404, "UNKNOWN_WORKSPACE"],
  "DELETE /v2/workspaces/members": [404, "UNKNOWN_MEMBER"],
};

let stub: StubServer;
const saved = { ...process.env };

beforeAll(async () => {
  stub = await StubServer.start();
  stub.handler = (req, res, body) => {
    const route = `${req.method} ${req.url?.split("?")[0]}`;
    const refusal = refusals[route];
    if (refusal) return reply(refusal[0], { status: "error", code: refusal[1] })(req, res, body);
    const answer = routes[route];
    if (answer === undefined) return reply(404, { status: "error", code: "ROUTE_NOT_FOUND" })(req, res, body);
    reply(200, { status: "success", response: answer })(req, res, body);
  };
  Object.assign(process.env, {
    SQUARECLOUD_API_KEY: `${ACCOUNT}-unit`,
    SQUARECLOUD_PLATFORM_URL: stub.url,
    SQUARECLOUD_BLOB_URL: stub.url,
    SQUARECLOUD_SKIP_CREDENTIALS_CHECK: "true",
  });
});

afterAll(async () => {
  process.env = saved;
  await stub.close();
});

beforeEach(() => {
  stub.reset();
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

describe("a database of a name and size the spec refuses at create", () => {
  test("is imported (read by its id alone) and refreshed", async () => {
    const imported = await databaseHandler.read("d1", {});
    expect(imported).toMatchObject({ id: "d1", props: { name: "sdk-test-db", memory: 256, type: "redis" } });
    expect(imported.props).toMatchObject({ createdAt: at, owner: ACCOUNT });
    const refreshed = await databaseHandler.read("d1", { ...imported.props, memory: 512 });
    expect(refreshed.props).toMatchObject({ name: "sdk-test-db", memory: 256 });
  });

  test("passes the check with the values it has, and is refused them for a new database or a replacement", async () => {
    const held = { name: "sdk-test-db", type: "redis", memory: 256 };
    expect((await databaseHandler.check(held, held)).failures).toEqual([]);
    // A rename or a resize sends the new value: the spec's rules apply to it.
    expect((await databaseHandler.check(held, { ...held, name: "sdk-test-db2" })).failures).toEqual([
      { property: "name", reason: expect.stringContaining('got "sdk-test-db2"') },
    ]);
    expect((await databaseHandler.check(held, { ...held, memory: 384 })).failures).toEqual([
      { property: "memory", reason: "must be at least 512 MB for a redis database, got 384" },
    ]);
    // A new database, or a new version that replaces this one, is created with them: refused.
    const failures = (await databaseHandler.check({}, { ...held, version: "7.4.5" })).failures;
    expect(failures?.map((failure) => failure.property)).toEqual(["name", "memory"]);
    const versioned = { ...held, version: "7.4.5" };
    const replaced = (await databaseHandler.check(versioned, { ...versioned, version: "7.2.0" })).failures;
    expect(replaced?.map((failure) => failure.property)).toEqual(["name", "memory"]);
  });
});

describe("a workspace of a name the spec refuses at create", () => {
  test("is imported and refreshed, a member without a display name among its members", async () => {
    const imported = await workspaceHandler.read(WORKSPACE_ID, {});
    expect(imported.props).toMatchObject({ name: "sdk-test-ws", createdAt: at, applications: ["a1"] });
    expect(imported.props.members).toEqual([
      { id: ACCOUNT, name: "Ana", group: "owner", joinedAt: at },
      { id: "2", name: "", group: "view", joinedAt: at },
    ]);
    const refreshed = await workspaceHandler.read(WORKSPACE_ID, imported.props);
    expect(refreshed.props).toEqual(imported.props);
    // Neither is a rename outside Pulumi.
    expect(console.warn).not.toHaveBeenCalled();
  });

  test("passes the check with its name, and a new workspace of that name is refused", async () => {
    const held = { name: "sdk-test-ws", applications: ["a1"] };
    expect((await workspaceHandler.check(held, held)).failures).toEqual([]);
    expect((await workspaceHandler.check({}, held)).failures).toEqual([
      { property: "name", reason: expect.stringContaining('got "sdk-test-ws"') },
    ]);
  });
});

describe("a member of such a workspace", () => {
  test("is imported by <workspace>/<user> and refreshed", async () => {
    const imported = await workspaceMemberHandler.read(`${WORKSPACE_ID}/2`, {});
    expect(imported).toEqual({
      id: `${WORKSPACE_ID}/2`,
      props: { workspaceId: WORKSPACE_ID, group: "view", userId: "2", name: "", joinedAt: at, workspaceOwner: ACCOUNT },
    });
    expect((await workspaceMemberHandler.read(`${WORKSPACE_ID}/2`, imported.props)).props).toEqual(imported.props);
  });

  test("keeps the check of its group, a closed set: the owner is no member", async () => {
    const held = { workspaceId: WORKSPACE_ID, group: "view", userId: "2" };
    expect((await workspaceMemberHandler.check(held, held)).failures).toEqual([]);
    const owner = { workspaceId: WORKSPACE_ID, group: "owner", userId: ACCOUNT };
    expect((await workspaceMemberHandler.check(owner, owner)).failures?.map((f) => f.property)).toEqual(["group"]);
  });
});

describe("a blob object under a name and prefix the spec refuses at upload", () => {
  test("is refreshed from the whole listing, the prefix being no filter the listing takes", async () => {
    const props = {
      name: "x",
      prefix: "sdk-test",
      url: `${stub.url}/public/${OBJECT_ID}`,
      size: 1024,
      createdAt: at,
      sha256: "0".repeat(64),
      mimeType: "text/plain",
    };
    const refreshed = await blobObjectHandler.read(OBJECT_ID, props as never);
    expect(refreshed).toEqual({ id: OBJECT_ID, props: { ...props, size: 2048 } });
    expect(stub.seen.map((request) => request.url)).toEqual(["/v1/objects"]);
  });
});

describe("data sources", () => {
  const session = () => sessionOf(providerConfig());

  test("getAccount lists the database with its size read from `ram`", async () => {
    const account = await runFunction(getAccount, {}, session);
    expect(account.databases).toEqual([
      expect.objectContaining({ id: "d1", name: "sdk-test-db", memory: 256, createdAt: at }),
    ]);
    expect(account.applications).toEqual([expect.objectContaining({ name: "sdk-test-app", createdAt: at })]);
  });

  test("getWorkspace and getApp find them by those names", async () => {
    const workspace = await runFunction(getWorkspace, { name: "sdk-test-ws" }, session);
    expect(workspace).toMatchObject({ id: WORKSPACE_ID, createdAt: at });
    expect(workspace.members[1]).toEqual({ id: "2", name: "", group: "view", joinedAt: at });
    expect(await runFunction(getApp, { name: "sdk-test-app" }, session)).toMatchObject({ id: "a1" });
  });
});

describe("refusals under the codes' old names", () => {
  test("a workspace answered UNKNOWN_WORKSPACE is gone, as one answered WORKSPACE_NOT_FOUND", async () => {
    const props = {
      name: "old_team",
      owner: ACCOUNT,
      createdAt: at,
      members: [],
      applications: [],
      linkedApplications: [],
    };
    expect(await workspaceHandler.read("gone", props as never)).toEqual({ id: "", props: {} });
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining("no longer exists"));
  });

  test("a member whose removal is answered UNKNOWN_MEMBER was already removed", async () => {
    const props = { workspaceId: WORKSPACE_ID, group: "view", userId: "3", workspaceOwner: ACCOUNT };
    await expect(workspaceMemberHandler.delete(`${WORKSPACE_ID}/3`, props)).resolves.toBeUndefined();
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining("was already removed"));
  });
});
