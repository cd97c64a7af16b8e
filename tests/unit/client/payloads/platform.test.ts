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
    expect(
      platform.Workspace.safeParse({ id: "w1", name: "team", owner: "u1", created_at: "2025-01-01T00:00:00Z" }).success,
    ).toBe(false);
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
