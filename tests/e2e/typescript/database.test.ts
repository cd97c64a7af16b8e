import type { OutputMap } from "@pulumi/pulumi/automation";
import { databaseLifecycle } from "../lifecycles/database";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack, SECRET_SIG, type StateResource } from "../harness/stack";
import {
  type DatabaseSpec,
  lifecycleSpec,
  openDatabaseProgram,
  setDatabaseSpec,
} from "../lifecycles/database-programs";

// The Database resource through the real engine against the emulator: the lifecycle every language
// shares, with what the TypeScript SDK proves beyond it on the same stack, then a day of faults on a
// stack of its own, and lost answers, adoption and replacement on one more. The refusals at preview
// beyond the lifecycle's (every field's rule, a missing API key) are in the bad-input table
// (tests/e2e/safety/bad-input.test.ts).

const DATABASE_TYPE = "pulumi-nodejs:dynamic/squarecloud:Database";
const LIFECYCLE_NAME = "tscache";

databaseLifecycle(LIFECYCLE_NAME, openDatabaseProgram(LIFECYCLE_NAME), {
  afterCreate({ suite, program }) {
    test("the create's password is in the connection URL; the state holds no plaintext secret and no API key", async () => {
      const out = await program().stack.outputs();
      firstPassword = out.password.value;
      expect(out.url.value).toContain(firstPassword);
      const live = await suite.api.getDatabase(out.id.value);
      expect(live).toMatchObject({ name: "tscache", ram: 512, type: "redis" });
      expect(out.owner.value).toBe(live.owner);
      const backend = program().backendText();
      for (const plaintext of [firstPassword, out.certificate.value, out.url.value, suite.emulator.accounts[0].apiKey])
        expect(backend).not.toContain(plaintext);
    });

    test("the serialized provider is a small stub with no URL, key or client in it", async () => {
      const provider = (await databaseState(program(), "cache")).outputs?.__provider as string;
      expect(provider.length).toBeLessThan(5_000);
      expect(provider).toContain('require("pulumi-squarecloud/provider")');
      for (const leak of [suite.emulator.platformUrl, suite.emulator.accounts[0].apiKey, "undici", "Pool"]) {
        expect(provider).not.toContain(leak);
      }
    });

    test("a preview of the unchanged program has no changes", async () => {
      expect((await program().stack.preview()).changeSummary).toEqual({ same: 2 });
    });
  },
  afterUpdates({ program }) {
    test("the update in place and the refresh kept the password", async () => {
      expect((await program().stack.outputs()).password.value).toBe(firstPassword);
      const state = await databaseState(program(), "cache");
      expect(state.outputs?.password).toMatchObject({ [SECRET_SIG]: expect.any(String) });
    });

    test("passwordRotation resets the password and rewrites the connection URL", async () => {
      await setDatabaseSpec(program(), {
        ...lifecycleSpec(LIFECYCLE_NAME, { memory: 1024, version: "7.4.5" }),
        passwordRotation: "r1",
      });
      const up = await program().stack.up();
      expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
      const out = up.outputs;
      expect(out.password.value).not.toBe(firstPassword);
      expect(out.url.value).toContain(out.password.value);
      expect(program().backendText()).not.toContain(out.password.value);
    });
  },
  beforeDestroy({ suite, program }) {
    test("a type change replaces the database", async () => {
      const old = (await program().stack.outputs()).id.value;
      await setDatabaseSpec(program(), { name: "tscache", type: "mongo", memory: 1024, version: "7.0" });
      const up = await program().stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
      expect(up.outputs.id.value).not.toBe(old);
      expect(up.outputs.type.value).toBe("mongo");
      expect(program().backendText()).not.toContain(up.outputs.password.value);
      await expect(suite.api.getDatabase(old)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
    });
  },
});

/** The lifecycle's first password, which the update in place and the refresh keep. */
let firstPassword: string;

const suite = emulatorSuite();

async function databasesStack(databases: Record<string, DatabaseSpec>) {
  const program = await programStack({
    program: "databases",
    config: { ...emulatorConfig(suite.emulator), databases: { value: JSON.stringify(databases) } },
  });
  return suite.keep(program);
}

async function setDatabases(program: ProgramStack, databases: Record<string, DatabaseSpec>) {
  await program.stack.setConfig("databases", { value: JSON.stringify(databases) });
}

async function databaseState(program: ProgramStack, name: string): Promise<StateResource> {
  const found = (await program.resources()).find((r) => r.type === DATABASE_TYPE && r.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no database ${name} in state`);
  return found;
}

/** The outputs of the database under `key`, from the outputs an up returned (no further command) or the stack's. */
function databaseOf(outputs: OutputMap, key: string): Record<string, any> {
  return (outputs.databases.value as Record<string, Record<string, any>>)[key];
}

describe("Database faults and bad input", () => {
  beforeEach(async () => {
    await suite.emulator.admin.clearFaults();
    await suite.emulator.admin.clearRequests();
  });

  test("a rough day: up, update, refresh and destroy all get through transient faults", async () => {
    const faults = [
      {
        match: { method: "GET", path: "/v2/users/me" },
        kind: "status",
        status: 503,
        code: "SERVICE_UNAVAILABLE",
        count: 2,
      },
      {
        match: { method: "POST", path: "/v2/databases" },
        kind: "status",
        status: 429,
        code: "RATE_LIMIT",
        retryAfter: "1",
        count: 1,
      },
      { match: { method: "PATCH", path: "/v2/databases/:id" }, kind: "reset", count: 1 },
      {
        match: { method: "GET", path: "/v2/databases/:id" },
        kind: "status",
        status: 502,
        code: "BAD_GATEWAY",
        count: 1,
      },
      {
        match: { method: "DELETE", path: "/v2/databases/:id" },
        kind: "status",
        status: 504,
        code: "GATEWAY_TIMEOUT",
        count: 1,
      },
    ] as const;
    for (const fault of faults) await suite.emulator.admin.injectFault(fault);

    const spec = { name: "rough", type: "redis", memory: 512, version: "7.4.5" };
    const program = await databasesStack({ rough: spec });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    await setDatabases(program, { rough: { ...spec, memory: 1024 } });
    const updated = await program.stack.up();
    expect(updated.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect((await program.stack.refresh()).summary.result).toBe("succeeded");
    const { id, password } = databaseOf(updated.outputs, "rough");
    expect(password).toEqual(expect.any(String));
    await program.stack.destroy();

    expect(await suite.emulator.admin.faults()).toEqual([]);
    expect((await suite.api.listDatabases()).filter((db) => db.name === "rough")).toEqual([]);
    await expect(suite.api.getDatabase(id)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
    const counters = await suite.emulator.admin.counters();
    expect(counters["POST /v2/databases"]).toBe(2); // the 429, then the create: one database
    expect(counters["PATCH /v2/databases/:id"]).toBe(2);
    expect(counters["DELETE /v2/databases/:id"]).toBe(2);
  });

  // The scenarios below share one stack, each adding its database to the program: the others stay
  // unchanged, so each up sends only the new one's requests.
  let held: ProgramStack;
  let declared: Record<string, DatabaseSpec> = {};

  async function declare(databases: Record<string, DatabaseSpec>) {
    declared = databases;
    if (held) await setDatabases(held, declared);
    else held = await databasesStack(declared);
  }

  test("a create whose response is lost ends with exactly one database, adopted with a warning", async () => {
    await declare({ lost: { name: "lostreply", type: "redis", memory: 512, version: "7.4.5" } });
    await suite.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "drop-after-commit",
      count: 1,
    });

    const up = await held.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.stdout + up.stderr).toContain("password could not be captured");

    const named = (await suite.api.listDatabases()).filter((db) => db.name === "lostreply");
    expect(named).toHaveLength(1);
    const out = databaseOf(up.outputs, "lost");
    expect(out.id).toBe(named[0].id);
    expect(out.password).toBeUndefined();
    expect(out.certificate).toEqual(expect.any(String));
    expect((await suite.emulator.admin.counters())["POST /v2/databases"]).toBe(1);

    // The recovery the warning names: a rotation captures a usable password.
    await declare({ lost: { ...declared.lost, passwordRotation: "1" } });
    expect(databaseOf((await held.stack.up()).outputs, "lost").password).toEqual(expect.any(String));
  });

  test("a create refused with a 503 before it took effect is sent again, not duplicated", async () => {
    await declare({ ...declared, flaky: { name: "flaky", type: "redis", memory: 512, version: "7.4.5" } });
    await suite.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases" },
      kind: "status",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      count: 1,
    });

    const up = await held.stack.up();
    expect((await suite.api.listDatabases()).filter((db) => db.name === "flaky")).toHaveLength(1);
    expect(databaseOf(up.outputs, "flaky").password).toEqual(expect.any(String));
    expect((await suite.emulator.admin.counters())["POST /v2/databases"]).toBe(2);
  });

  test("a database deleted outside Pulumi leaves the state at refresh", async () => {
    const { id } = databaseOf(await held.stack.outputs(), "flaky");
    await suite.api.deleteDatabase(id);
    const refresh = await held.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    expect(refresh.stdout).toContain("deleted outside Pulumi");
    const names = (await held.resources()).map((r) => r.urn.split("::").pop());
    expect(names).not.toContain("flaky");
    // Out of the program too, so that no later up makes it again.
    const { flaky: _gone, ...rest } = declared;
    await declare(rest);
  });

  test("--replace of an adopted database that still names itself never deletes it", async () => {
    const existing = await suite.api.createDatabase({ name: "kept", type: "redis", memory: 512, version: "7.4.5" });
    await declare({
      ...declared,
      kept: { name: "kept", type: "redis", memory: 512, version: "7.4.5", adoptId: existing.id },
    });
    await held.stack.up();
    const urn = (await databaseState(held, "kept")).urn;

    await held.stack.up({ replace: [urn] }).catch(() => undefined); // refused or absorbed: both keep it
    const up = await held.stack.up();
    expect(await suite.api.getDatabase(existing.id)).toMatchObject({ name: "kept" });
    expect(databaseOf(up.outputs, "kept").id).toBe(existing.id);
  });

  test("adoptId takes over an existing database: certificate fetched, password only by an explicit reset", async () => {
    const existing = await suite.api.createDatabase({ name: "legacy", type: "mongo", memory: 1024, version: "7.0" });
    await suite.emulator.admin.clearRequests();
    const adopted = { name: "legacy", type: "mongo", memory: 1024, version: "7.0", adoptId: existing.id };
    await declare({ ...declared, legacy: adopted });
    let out = databaseOf((await held.stack.up()).outputs, "legacy");
    expect(out).toMatchObject({ id: existing.id, certificate: expect.any(String) });
    expect(out.password).toBeUndefined();
    expect((await suite.emulator.admin.counters())["POST /v2/databases"]).toBeUndefined();

    await declare({ ...declared, legacy: { ...adopted, passwordRotation: "adopted" } });
    out = databaseOf((await held.stack.up()).outputs, "legacy");
    expect(out.password).toEqual(expect.any(String));
    expect(out.password).not.toBe(existing.password);

    // A replacement while adoptId still names the database would adopt it again and then delete
    // it: the preview refuses and says what to do; without adoptId it replaces.
    const selfReplace = { ...adopted, version: "8.0", passwordRotation: "adopted" };
    await declare({ ...declared, legacy: selfReplace });
    const refused = await held.stack.preview().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(String(refused?.message)).toContain("Remove adoptId from the program");
    await declare({ ...declared, legacy: { ...selfReplace, adoptId: undefined } });
    const up = await held.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const replaced = databaseOf(up.outputs, "legacy");
    expect(replaced.id).not.toBe(existing.id);
    expect(replaced.password).toEqual(expect.any(String));
    expect(await suite.api.getDatabase(replaced.id)).toMatchObject({ name: "legacy", type: "mongo" });
    await expect(suite.api.getDatabase(existing.id)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
  });
});
