import type { DatabaseSummary } from "../../../provider/client/payloads/platform";
import { beyondKeyCheck, type EmulatorSuite, emulatorSuite } from "../harness/emulator-env";
import { SecretScanner } from "../reliability/secret-scan";
import type { ServiceSuite } from "../harness/service-suite";
import type { ProgramStack, ProgramStackOptions } from "../harness/stack";

/** What a database program of the lifecycle states; the rest (its name, type) is fixed. */
export interface DatabaseShape {
  memory: number;
  version: string;
}

/** A stack whose program declares one redis Database named `name` and exports its url, password, certificate and owner. */
export interface DatabaseProgram extends ProgramStack {
  /** Rewrites the program (a file of the project, or the stack's config) to declare the shape. */
  setDatabase(shape: DatabaseShape): void | Promise<void>;
}

/** What a language's own tests of the lifecycle's stack reach. */
export interface DatabaseLifecycleContext<S extends ServiceSuite = EmulatorSuite> {
  suite: S;
  program(): DatabaseProgram;
  /** The account's databases whose name starts with the lifecycle's. */
  listed(): Promise<DatabaseSummary[]>;
}

/**
 * Tests a language adds on the lifecycle's stack, defined at three points of it, so that what it
 * proves beyond the lifecycle costs no stack of its own. `beforeDestroy` must leave the database
 * named `name` in the program and the account.
 */
export interface DatabaseLifecycleExtras<S extends ServiceSuite = EmulatorSuite> {
  afterCreate?(context: DatabaseLifecycleContext<S>): void;
  /** After the update in place and the refresh, before the bad input and the replace. */
  afterUpdates?(context: DatabaseLifecycleContext<S>): void;
  beforeDestroy?(context: DatabaseLifecycleContext<S>): void;
}

/**
 * The lifecycle of a Database, whatever language declares it and whichever provider serves it (the
 * TypeScript SDK's dynamic provider, or the native plugin for the others): create with sealed
 * secrets, update in place, refresh of a drift, refusal at preview, replace, destroy. Defines the
 * tests of the calling file; `open` makes the stack from the first shape. `service` is where it
 * runs: the in-process emulator unless given (tests/live gives the live service's).
 */
export function databaseLifecycle<S extends ServiceSuite = EmulatorSuite>(
  name: string,
  open: (first: DatabaseShape, options: Omit<ProgramStackOptions, "program">) => Promise<DatabaseProgram>,
  extras: DatabaseLifecycleExtras<S> = {},
  // Without `service`, S is its default, EmulatorSuite: the one case the cast covers.
  service: () => S = emulatorSuite as unknown as () => S,
): void {
  const suite = service();
  let program: DatabaseProgram;
  const secrets = new SecretScanner();

  const listed = async (): Promise<DatabaseSummary[]> =>
    (await suite.api.listDatabases()).filter((db) => db.name.startsWith(name));
  // squarecloud:index:Database (the native plugin) or pulumi-nodejs:dynamic/squarecloud:Database.
  const databaseState = async () => (await program.resources()).find((resource) => resource.type.endsWith(":Database"));
  const context: DatabaseLifecycleContext<S> = { suite, program: () => program, listed };

  beforeAll(async () => {
    program = await open({ memory: 512, version: "7.4.5" }, { config: suite.config() });
    suite.keep(program);
  });

  test("up creates the database; password, certificate and URL are secrets, encrypted in state", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    const [db] = await listed();
    expect(db).toMatchObject({ name, memory: 512 });
    expect(up.outputs.owner).toEqual({ value: suite.ownerId(), secret: false });
    const state = await databaseState();
    for (const output of ["password", "certificate", "connectionUrl"]) {
      expect({
        output,
        sealed: (state?.outputs?.[output] as Record<string, unknown>)?.ciphertext !== undefined,
      }).toEqual({ output, sealed: true });
    }
    for (const output of ["url", "password", "certificate"]) {
      expect({ output, secret: up.outputs[output].secret, given: typeof up.outputs[output].value }).toEqual({
        output,
        secret: true,
        given: "string",
      });
      secrets.add(output, up.outputs[output].value);
    }
    expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
  });

  extras.afterCreate?.(context);

  test("a new memory updates it in place", async () => {
    const [before] = await listed();
    await program.setDatabase({ memory: 1024, version: "7.4.5" });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    const [after] = await listed();
    expect({ id: after.id, memory: after.memory }).toEqual({ id: before.id, memory: 1024 });
  });

  test("refresh reads a rename made outside Pulumi, and the next up brings the name back", async () => {
    const [db] = await listed();
    await suite.api.updateDatabase(db.id, { name: `${name}X` });
    await program.stack.refresh();
    expect((await databaseState())?.outputs?.name).toBe(`${name}X`);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await listed()).map((found) => found.name)).toEqual([name]);
  });

  extras.afterUpdates?.(context);

  test("bad input is refused at preview with the dynamic provider's message and no request", async () => {
    await program.setDatabase({ memory: 100, version: "7.4.5" });
    await suite.log.clearRequests();
    await expect(program.stack.preview()).rejects.toThrow(
      /property memory value \{100\} has a problem: must be at least 512 MB for a redis database, got 100/,
    );
    expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
  });

  test("a new version replaces it: the new database first, then the old one is deleted", async () => {
    const [before] = await listed();
    await program.setDatabase({ memory: 1024, version: "7.4.6" });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const after = await listed();
    expect(after).toHaveLength(1);
    expect(after[0].id).not.toBe(before.id);
    expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
  });

  extras.beforeDestroy?.(context);

  test("destroy deletes it", async () => {
    await program.stack.destroy();
    expect(await listed()).toEqual([]);
  });
}
