import * as platform from "../../../../provider/client/payloads/platform";

describe("platform schemas", () => {
  it("reads analytics of a window before the app existed ({}) as empty series", () => {
    const analytics = platform.Analytics.parse({});
    expect(Object.keys(analytics).sort()).toEqual([
      "browsers",
      "countries",
      "devices",
      "methods",
      "os",
      "paths",
      "protocols",
      "providers",
      "referers",
      "visits",
    ]);
    expect(Object.values(analytics).every((series) => Array.isArray(series) && series.length === 0)).toBe(true);
  });

  it("keeps analytics points and rejects a point without counts", () => {
    const point = { type: "BR", visits: 3, requests: 9, bytes: 1024, date: "2025-01-01T00:00:00Z" };
    expect(platform.Analytics.parse({ countries: [point] }).countries).toEqual([point]);
    expect(platform.Analytics.safeParse({ countries: [{ type: "BR", date: "2025-01-01T00:00:00Z" }] }).success).toBe(
      false,
    );
  });

  it("treats unknown deployment states as data", () => {
    const deployments = platform.Deployments.parse([
      [
        { id: "d1", state: "pending", date: "2025-01-01T00:00:00.000Z" },
        { id: "d1", state: "restarting", date: "2025-01-01T00:00:01.000Z" },
      ],
    ]);
    expect(deployments[0].map((event) => event.state)).toEqual(["pending", "restarting"]);
  });

  it("lifts versionId out of a snapshot's pre-signed key", () => {
    const entry = platform.SnapshotEntry.parse({
      name: "db1",
      size: 2048,
      modified: "2025-01-01T00:00:00.000Z",
      key: "?AWSAccessKeyId=AKIA&Expires=1735689600&Signature=abc&versionId=6f1c2d3e-1111-4222-8333-944455556666",
    });
    expect(entry.versionId).toBe("6f1c2d3e-1111-4222-8333-944455556666");
    expect(
      platform.SnapshotEntry.parse({ name: "app", size: 1, modified: "x", key: "Expires=1" }).versionId,
    ).toBeUndefined();
  });

  it("keeps the listing's connection URL for adoption, drops the password and unknown fields", () => {
    const [summary] = platform.Account.pick({ databases: true }).parse({
      databases: [
        { id: "db1", name: "cache", type: "redis", memory: 512, password: "p", connection_url: "redis://x", extra: 1 },
      ],
    }).databases;
    expect(summary).toEqual({
      id: "db1",
      name: "cache",
      type: "redis",
      memory: 512,
      cpu: undefined,
      connection_url: "redis://x",
      cluster: undefined,
      created_at: undefined,
    });
  });

  it("reconciles with a listing item that has only id and name", () => {
    const [summary] = platform.Account.pick({ databases: true }).parse({
      databases: [{ id: "db1", name: "cache", memory: "big" }],
    }).databases;
    expect(summary).toMatchObject({ id: "db1", name: "cache", memory: undefined });
  });

  it("keeps the one-time password when the rest of a creation response is odd", () => {
    const created = platform.CreatedDatabase.parse({
      id: "db1",
      password: "p",
      memory: "512",
      certificate: null,
      cluster: 3,
    });
    expect(created).toMatchObject({
      id: "db1",
      password: "p",
      memory: undefined,
      certificate: undefined,
      cluster: undefined,
    });
  });

  it("requires the id and the password of a created database", () => {
    const created = {
      id: "db1",
      name: "cache",
      memory: 512,
      cpu: 1,
      type: "redis",
      password: "p",
      certificate: "c",
      connection_url: "u",
    };
    expect(platform.CreatedDatabase.parse({ ...created, cluster: "florida-1" }).cluster).toBe("florida-1");
    const withoutPassword: Record<string, unknown> = { ...created };
    delete withoutPassword.password;
    expect(platform.CreatedDatabase.safeParse(withoutPassword).success).toBe(false);
  });

  it("reads workspaces with camelCase timestamps and tolerates missing lists", () => {
    const workspace = platform.Workspace.parse({
      id: "w1",
      name: "team",
      owner: "u1",
      createdAt: "2025-01-01T00:00:00Z",
    });
    expect(workspace.members).toEqual([]);
    expect(platform.Workspace.safeParse({ id: "w1", name: "team", owner: "u1" }).success).toBe(false);
  });

  it("turns null optional fields into absent ones", () => {
    const user = platform.User.parse({
      id: "u1",
      name: "Ana",
      email: "ana@example.com",
      plan: { name: "free", memory: { limit: 1024, available: 512, used: 512 }, duration: null },
      locale: null,
    });
    expect(user.plan.duration).toBeUndefined();
    expect(user.locale).toBeUndefined();
  });
});

// Answers shaped as the official clients' types allow them (@squarecloud/api-types 3, which
// @squarecloud/api 5 reads; squarecloud-api 5's squarecloud/types.py): each must be read.
describe("answers the official clients accept", () => {
  const at = "2026-11-20T10:00:00.000Z";

  it("reads each timestamp under its snake_case and its camelCase spelling", () => {
    const plan = { name: "free", memory: { limit: 1024, available: 512, used: 512 }, duration: null };
    const app = { id: "a1", name: "site", ram: 512, lang: "javascript", cluster: "florida-1" };
    const details = { id: "a1", name: "site", owner: "u1", cluster: "florida-1", ram: 512, language: "javascript" };
    const database = { id: "d1", name: "cache", owner: "u1", cluster: "c", ram: 512, type: "redis", port: 7000 };
    const workspace = { id: "w1", name: "team", owner: "u1" };
    for (const spelled of [
      { snake: "created_at", camel: "createdAt" },
      { snake: "createdAt", camel: "created_at" },
    ]) {
      const dated = { [spelled.snake]: at };
      expect(platform.User.parse({ id: "u1", name: "Ana", email: "a@b.c", plan, ...dated }).created_at).toBe(at);
      expect(platform.AppSummary.parse({ ...app, ...dated }).created_at).toBe(at);
      expect(platform.App.parse({ ...details, ...dated }).created_at).toBe(at);
      expect(platform.DatabaseDetails.parse({ ...database, ...dated }).created_at).toBe(at);
      expect(platform.DatabaseSummary.parse({ id: "d1", name: "cache", ...dated }).created_at).toBe(at);
      expect(platform.Workspace.parse({ ...workspace, ...dated }).createdAt).toBe(at);
    }
    const member = { id: "u2", name: "Bob", group: "view" };
    expect(
      platform.Workspace.parse({ ...workspace, createdAt: at, members: [{ ...member, joined_at: at }] }).members,
    ).toEqual([{ ...member, joinedAt: at }]);
  });

  it("prefers the field's own spelling when both are sent", () => {
    const both = { id: "d1", name: "cache", created_at: at, createdAt: "1999-01-01T00:00:00.000Z" };
    expect(platform.DatabaseSummary.parse(both).created_at).toBe(at);
  });

  it("reads an application of the listing and by id without description, domain or custom domain, or with them null", () => {
    const listed = { id: "a1", name: "bot", ram: 256, lang: "python", cluster: "florida-1", created_at: at };
    expect(platform.AppSummary.parse(listed)).toEqual(listed);
    expect(platform.AppSummary.parse({ ...listed, domain: null, custom: null })).toEqual(listed);
    const byId = {
      id: "a1",
      name: "bot",
      owner: "u1",
      cluster: "florida-1",
      ram: 256,
      language: "python",
      created_at: at,
    };
    expect(platform.App.parse({ ...byId, domain: null, custom: null })).toEqual(byId);
    const user = {
      id: "u1",
      name: "Ana",
      email: "a@b.c",
      plan: { name: "free", memory: { limit: 1, available: 1, used: 0 } },
    };
    expect(platform.Account.parse({ user, applications: [listed] }).applications).toEqual([listed]);
  });

  it("reads the memory of a listed database from `ram`, the official types' name for it", () => {
    const listed = { id: "d1", name: "sdk-test-db", ram: 256, type: "redis", cluster: "c", created_at: at };
    expect(platform.DatabaseSummary.parse(listed)).toMatchObject({ name: "sdk-test-db", memory: 256 });
    expect(platform.DatabaseSummary.parse({ ...listed, memory: 512 }).memory).toBe(512);
  });

  it("reads a workspace member whose display name is null, as an empty name", () => {
    const workspace = platform.Workspace.parse({
      id: "0123456789abcdef0123456789abcdef01234567",
      name: "sdk-test-ws",
      owner: "u1",
      createdAt: at,
      members: [{ id: "u2", name: null, group: "view", joinedAt: at }],
      applications: [{ id: "a1", name: "bot", desc: null, ram: 256, lang: "python", domain: null, custom: null }],
    });
    expect(workspace.members).toEqual([{ id: "u2", name: "", group: "view", joinedAt: at }]);
    expect(workspace.applications).toEqual([{ id: "a1", name: "bot", ram: 256, lang: "python" }]);
  });

  it("reads a workspace creation answer of id and name alone", () => {
    expect(platform.CreatedWorkspace.parse({ id: "w1", name: "sdk-test-ws" })).toMatchObject({ id: "w1" });
    expect(platform.CreatedWorkspace.safeParse({ name: "sdk-test-ws" }).success).toBe(false);
  });

  it("takes a snapshot's version from its own field when the key carries none", () => {
    const entry = { name: "d1", size: 10, modified: at, key: "Expires=1&Signature=s" };
    expect(platform.SnapshotEntry.parse({ ...entry, version_id: "v-1", url: "https://x/y.zip?k" }).versionId).toBe(
      "v-1",
    );
    expect(
      platform.SnapshotEntry.parse({ ...entry, key: `${entry.key}&versionId=v-2`, version_id: "v-1" }).versionId,
    ).toBe("v-2");
    expect(Object.keys(platform.SnapshotEntry.parse({ ...entry, version_id: "v-1" }))).not.toContain("version_id");
  });
});
