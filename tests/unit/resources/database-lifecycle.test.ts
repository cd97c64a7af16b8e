import { LOOK_AGAIN_MS } from "../../../provider/lifecycle/look-again";
import { databaseHandler } from "../../../provider/resources/database";
import type { DatabaseOutputs } from "../../../provider/kinds/database";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The Database handler's risky paths, called directly against the emulator with injected faults:
// no engine, so each failure mode is set up exactly. The provider reads its settings from the
// environment here, as it does when the stack config leaves them out, and waits on a fake clock.

const env = providerAgainstEmulator();
const PROVIDER = "serialized-stub";

const redis = (name: string) => ({ name, type: "redis" as const, memory: 512, version: "7.4.5", __provider: PROVIDER });
const named = async (name: string) => (await env.api.listDatabases()).filter((db) => db.name === name);
const posts = () => env.count("POST /v2/databases");

describe("create with an unknown outcome", () => {
  test("a 504 is not followed by a second POST; the error says how to adopt", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status",
      status: 504,
      code: "GATEWAY_TIMEOUT",
      count: 1,
    });
    await expect(databaseHandler.create(redis("lostdb"))).rejects.toThrow(
      /create database "lostdb": the outcome is unknown .* set adoptId to its id/,
    );
    expect(await posts()).toBe(1);
    expect(await named("lostdb")).toEqual([]);
    // It looked again after every wait of its schedule before giving up.
    expect(env.clock.sleeps).toEqual(LOOK_AGAIN_MS.databaseCreate);
  });

  test("a connection reset with no answer is sent again once nothing appeared, and makes one database", async () => {
    await env.emulator.admin.injectFault({ match: { method: "POST", path: "/v2/databases" }, kind: "reset", count: 1 });
    const { id, outs } = await databaseHandler.create(redis("resetdb"));
    expect(outs.password).toEqual(expect.any(String));
    expect((await named("resetdb")).map((db) => db.id)).toEqual([id]);
    expect(await posts()).toBe(2);
    expect(env.clock.sleeps).toEqual([...LOOK_AGAIN_MS.databaseCreate, expect.any(Number)]);
  });

  test("a 503 refusal is sent again once nothing appeared", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      count: 1,
    });
    const { id, outs } = await databaseHandler.create(redis("refused"));
    expect(outs.password).toEqual(expect.any(String));
    expect((await named("refused")).map((db) => db.id)).toEqual([id]);
    expect(await posts()).toBe(2);
    // It looked for the whole schedule, then waited the client's backoff before sending again.
    expect(env.clock.sleeps).toEqual([...LOOK_AGAIN_MS.databaseCreate, expect.any(Number)]);
  });

  test("two resources of the same name created at once never share one database", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      count: 1,
    });
    const [a, b] = await Promise.all([databaseHandler.create(redis("twin")), databaseHandler.create(redis("twin"))]);
    expect(a.id).not.toBe(b.id);
    expect((await named("twin")).map((db) => db.id).sort()).toEqual([a.id, b.id].sort());
    expect([a.outs.password, b.outs.password]).toEqual([expect.any(String), expect.any(String)]);
  });

  test("a lost create whose adoption fails is recorded in state without secrets, and the next update completes it", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "drop-after-commit",
      count: 1,
    });
    // A refusal that is not retried (a passing 500 would be) makes the adoption's read fail.
    await env.emulator.admin.injectFault({
      match: { method: "GET", path: "/v2/databases/:id" },
      kind: "status",
      status: 403,
      code: "PERMISSION_DENIED",
      count: 1,
    });
    const error = await databaseHandler.create(redis("orphan")).then(
      () => undefined,
      (err) => err,
    );
    const [made] = await named("orphan");
    expect(error).toMatchObject({
      id: made.id,
      properties: { name: "orphan", owner: expect.any(String), __provider: PROVIDER },
    });
    expect(error.message).toContain("could not be adopted yet");
    for (const secret of ["password", "certificate", "connectionUrl"])
      expect(error.properties).not.toHaveProperty(secret);
    expect(await posts()).toBe(1);

    // The engine keeps it and retries through update, which fills what the adoption could not.
    const { outs } = await databaseHandler.update(made.id, error.properties, redis("orphan"));
    expect(outs).toMatchObject({
      owner: error.properties.owner,
      certificate: expect.any(String),
      connectionUrl: expect.any(String),
    });
    env.useAccount(1);
    await expect(databaseHandler.delete(made.id, outs)).rejects.toThrow(/only its owner, account \d+, can do this/);
  });
});

describe("ownership", () => {
  test("with another account's key, refresh and delete refuse instead of dropping a live database", async () => {
    const { id, outs } = await databaseHandler.create(redis("mine"));
    env.useAccount(1);
    const [owner, other] = env.emulator.accounts.map((account) => account.accountId);
    await expect(databaseHandler.read(id, outs)).rejects.toThrow(
      `refresh database "mine" (${id}): only its owner, account ${owner}, can do this, and the configured API key is for ` +
        `account ${other} (DATABASE_NOT_FOUND: another account's key gets it whether or not the object still exists). ` +
        `Use the owner's key (squarecloud:apiKey or SQUARECLOUD_API_KEY). Nothing was changed.`,
    );
    await expect(databaseHandler.delete(id, outs)).rejects.toThrow(
      `delete database "mine" (${id}): only its owner, account ${owner}`,
    );
    expect(await named("mine")).toHaveLength(1);
  });

  test("with the owner's key, a database deleted outside Pulumi leaves the state", async () => {
    const { id, outs } = await databaseHandler.create(redis("gone"));
    await env.api.deleteDatabase(id);
    expect(await databaseHandler.read(id, outs)).toEqual({ id: "", props: {} });
    await expect(databaseHandler.delete(id, outs)).resolves.toBeUndefined();
  });
});

describe("adoption and rotation", () => {
  test("adopting keeps the listed connection URL and a rotation puts the new password in it", async () => {
    const existing = await env.api.createDatabase({ name: "legacy", type: "redis", memory: 512, version: "7.4.5" });
    const adopted = await databaseHandler.create({ ...redis("legacy"), adoptId: existing.id, passwordRotation: "1" });
    const outs = adopted.outs as DatabaseOutputs;
    expect(outs.password).toEqual(expect.any(String));
    expect(outs.password).not.toBe(existing.password);
    expect(new URL(outs.connectionUrl as string).password).toBe(outs.password);
    expect(outs.certificate).toEqual(expect.any(String));
  });

  test("a password reset whose response is lost says the password may have changed", async () => {
    const { id, outs } = await databaseHandler.create(redis("rotating"));
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases/:id/credentials/reset" },
      kind: "drop-after-commit",
      count: 1,
    });
    await expect(databaseHandler.update(id, outs, { ...redis("rotating"), passwordRotation: "2" })).rejects.toThrow(
      /may have been reset without the new one being received.*Run pulumi up again/,
    );
  });

  test("refresh fetches a certificate the state lacks", async () => {
    const { id, outs } = await databaseHandler.create(redis("nocert"));
    const { certificate: _dropped, ...withoutCertificate } = outs as DatabaseOutputs;
    const { props } = await databaseHandler.read(id, withoutCertificate);
    expect(props?.certificate).toEqual(expect.any(String));
  });
});

describe("two resources holding one database", () => {
  test("a database adopted in this update only leaves the state of the resource that held it before (rename, --replace)", async () => {
    // The rename case: the old resource is not in the program, so this process never saw it.
    const other = await env.api.createDatabase({ name: "renamed", type: "redis", memory: 512, version: "7.4.5" });
    const adopted = await databaseHandler.create({ ...redis("renamed"), adoptId: other.id });
    await expect(databaseHandler.delete(other.id, { ...adopted.outs, name: "renamed" })).resolves.toBeUndefined();
    expect(await named("renamed")).toHaveLength(1);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining("leaves the state but is not deleted"));
  });

  test("a database another resource of the stack holds cannot be adopted", async () => {
    const first = await databaseHandler.create(redis("solo"));
    await expect(databaseHandler.create({ ...redis("solo"), adoptId: first.id })).rejects.toThrow(
      /another resource of this stack already holds it/,
    );
  });

  test("a sibling renamed onto the name during the re-check is not taken for the lost database", async () => {
    const sibling = await databaseHandler.create(redis("sibling"));
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status",
      status: 500,
      code: "INTERNAL_SERVER_ERROR",
      count: 1,
    });
    // After the first look, so the sibling is new to every later one.
    env.clock.duringNextSleep(() => env.api.updateDatabase(sibling.id, { name: "contested" }));
    await expect(databaseHandler.create(redis("contested"))).rejects.toThrow(/the outcome is unknown/);
    expect((await named("contested")).map((db) => db.id)).toEqual([sibling.id]);
    expect(env.clock.sleeps).toEqual(LOOK_AGAIN_MS.databaseCreate);
  });
});
