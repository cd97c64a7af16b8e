import { SNAPSHOT_RATE_MS } from "../../../emulator/models/rules";
import { beyondKeyCheck, type EmulatorSuite, emulatorSuite } from "../harness/emulator-env";
import type { OperationsService } from "../harness/service-suite";
import { SecretScanner } from "../reliability/secret-scan";
import { MOVE_ROUTE, PRESIGNED_KEY, RESTORE_ROUTE, SNAPSHOT_ROUTE } from "./operation-routes";
import { type ProgramStack, type ProgramStackOptions, SECRET_SIG, type StateResource } from "../harness/stack";

/**
 * The inputs of the operations of a program, as the package schema names them: the restore and the
 * move where the service allows them (OperationTargets), always on the emulator.
 */
export interface Operations {
  snapshot: { appId: string; trigger: string };
  restore?: { databaseId: string; snapshotId: string; versionId: string; confirm: boolean };
  move?: { appId: string; path: string; to: string };
}

/** The three operations, as the emulator's lifecycle always declares them: for programs that declare each. */
export function allThree({ snapshot, restore, move }: Operations): Required<Operations> {
  if (!restore || !move) throw new Error("this program declares all three operations: the emulator's lifecycle");
  return { snapshot, restore, move };
}

/**
 * A stack whose program declares an AppSnapshot `snapshot`, a DatabaseRestore `restore` and an
 * AppFileMove `move`, and exports snapshotUrl, snapshotKey, takenAt (the snapshot's url, key and
 * takenAt), restoredAt and movedAt.
 */
export interface OperationsProgram extends ProgramStack {
  /** Rewrites the program (a file of the project, or the stack's config) to declare the operations. */
  setOperations(operations: Operations): void | Promise<void>;
}

/** What a language's own tests of the lifecycle's stack reach. */
export interface OperationsLifecycleContext<S extends OperationsService = EmulatorSuite> {
  suite: S;
  program(): OperationsProgram;
  /** The operations the lifecycle's program declares at that point. */
  operations(): Operations;
}

/**
 * Tests a language adds on the lifecycle's stack, so that what it proves beyond the lifecycle costs
 * no stack of its own.
 */
export interface OperationsLifecycleExtras<S extends OperationsService = EmulatorSuite> {
  /** After the refusals at preview, before the first up; must leave the lifecycle's operations declared. */
  afterPreviews?(context: OperationsLifecycleContext<S>): void;
  /** After the new snapshot, before the destroy. */
  beforeDestroy?(context: OperationsLifecycleContext<S>): void;
}

/**
 * AppSnapshot, DatabaseRestore and AppFileMove declared in a program, whatever its language and
 * whichever provider serves it (the TypeScript SDK's dynamic provider, or the native plugin for the
 * others): each operation runs once, by the up that creates it. Defines the tests of the calling
 * file; `open` makes the stack from the first operations. `service` is where it runs: the
 * in-process emulator unless given (tests/live gives the live service's), which names what the
 * operations act on.
 */
export function operationsLifecycle<S extends OperationsService = EmulatorSuite>(
  open: (first: Operations, options: Omit<ProgramStackOptions, "program">) => Promise<OperationsProgram>,
  extras: OperationsLifecycleExtras<S> = {},
  // Without `service`, S is its default, EmulatorSuite: the one case the cast covers.
  service: () => S = emulatorSuite as unknown as () => S,
): void {
  const suite = service();
  /** The emulator's own suite, for its clock; undefined elsewhere, where the provider waits the snapshot rate out. */
  const onEmulator = service === (emulatorSuite as unknown) ? (suite as unknown as EmulatorSuite) : undefined;

  let program: OperationsProgram;
  let operations: Operations;
  let targets: ReturnType<S["operationTargets"]>;

  type Overrides = { [K in keyof Operations]?: Partial<Operations[K]> };

  function withOverrides(overrides: Overrides): Operations {
    return {
      snapshot: { ...operations.snapshot, ...overrides.snapshot },
      ...(operations.restore ? { restore: { ...operations.restore, ...overrides.restore } } : {}),
      ...(operations.move ? { move: { ...operations.move, ...overrides.move } } : {}),
    };
  }

  /** The operations the program declares now. */
  let current: Operations;
  const context: OperationsLifecycleContext<S> = { suite, program: () => program, operations: () => current };
  /** The operations' creates, the stack's included. */
  const created = () => 2 + (operations.restore ? 1 : 0) + (operations.move ? 1 : 0);

  async function stateOf(name: string): Promise<StateResource | undefined> {
    return (await program.resources()).find((resource) => resource.urn.endsWith(`::${name}`));
  }

  beforeAll(async () => {
    targets = suite.operationTargets() as ReturnType<S["operationTargets"]>;
    const { appId, restore, move } = targets;
    operations = {
      snapshot: { appId, trigger: "v1" },
      ...(restore ? { restore: { ...restore, confirm: true } } : {}),
      ...(move ? { move: { appId, ...move } } : {}),
    };
    current = operations;
    program = await open(operations, { config: suite.config() });
    suite.keep(program);
  });

  beforeEach(async () => {
    await suite.log.clearRequests();
  });

  /** The message of a preview of the program with those overrides; the program is restored after. */
  async function previewFailure(overrides: Overrides): Promise<string> {
    await program.setOperations(withOverrides(overrides));
    try {
      return await program.stack.preview().then(
        () => "",
        (err: Error) => err.message,
      );
    } finally {
      await program.setOperations(operations);
    }
  }

  const restoreGiven = () => suite.operationTargets().restore;
  (restoreGiven() ? test : test.skip)(
    "an unconfirmed restore fails at preview, saying what would be lost, with no request",
    async () => {
      const message = await previewFailure({ restore: { confirm: false } });
      expect(message).toMatch(
        new RegExp(
          `confirm.*database "${restoreGiven()?.databaseId}".*after the snapshot was taken is lost for good, got false`,
        ),
      );
      expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
    },
  );

  test("bad file paths fail at preview naming the field, the rule and the value, with no request", async () => {
    // Declared only for this preview where the program has no move: it fails before any request.
    const move = operations.move ?? { appId: operations.snapshot.appId, path: "", to: "" };
    await program.setOperations({ ...operations, move: { ...move, path: "../secrets.txt", to: "/etc/app.js" } });
    const message = await program.stack
      .preview()
      .then(
        () => "",
        (err: Error) => err.message,
      )
      .finally(() => program.setOperations(operations));
    expect(message).toMatch(/path.*must not contain "\.", "\.\." or empty segments, got "\.\.\/secrets\.txt"/);
    expect(message).toMatch(/to.*must be relative to the application root \(no leading "\/"\), got "\/etc\/app\.js"/);
    expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
  });

  extras.afterPreviews?.(context);

  test("up performs each operation once; the snapshot's url and key are secrets, ciphertext in state", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: created() });
    const counters = await suite.log.counters();
    expect([counters[SNAPSHOT_ROUTE], counters[RESTORE_ROUTE], counters[MOVE_ROUTE]]).toEqual([
      1,
      operations.restore ? 1 : undefined,
      operations.move ? 1 : undefined,
    ]);

    const { snapshotUrl: url, snapshotKey: key } = up.outputs;
    expect({ url: url.secret, key: key.secret }).toEqual({ url: true, key: true });
    // A pre-signed link to the ZIP archive, which the emulator serves as the snapshot host does.
    expect(url.value).toMatch(/^https?:\/\/.*\.zip\?/);
    expect(url.value.endsWith(key.value)).toBe(true);
    const archive = await fetch(url.value);
    expect({
      status: archive.status,
      zip: Buffer.from(await archive.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    }).toEqual({
      status: 200,
      zip: "PK",
    });
    const state = await stateOf("snapshot");
    for (const field of ["url", "key"]) {
      expect(state?.outputs?.[field]).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
    }
    const secrets = new SecretScanner()
      .add("url", url.value)
      .add("key", key.value)
      .add("API key", String(suite.config()["squarecloud:apiKey"]?.value));
    expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
    expect(program.backendText()).not.toMatch(PRESIGNED_KEY);
    if (operations.restore) expect(up.outputs.restoredAt.value).toEqual(expect.any(String));
    if (operations.move) {
      expect(up.outputs.movedAt.value).toEqual(expect.any(String));
      // The file is at its new path and no longer at the old one.
      const { appId, path, to } = operations.move;
      await expect(suite.api.moveAppFile(appId, { path, to: `${path}.gone` })).rejects.toMatchObject({
        code: "FILE_NOT_FOUND",
      });
      await expect(suite.api.moveAppFile(appId, { path: to, to })).resolves.toBeUndefined();
    }
  });

  test("a second up changes nothing and makes no request", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: created() });
    expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
  });

  test("a new trigger replaces the snapshot: a new one is taken, the others stay as they are", async () => {
    const before = (await program.stack.outputs()).snapshotKey.value;
    // The first snapshot may be only moments old, and the service takes one per account every 5 s:
    // past that on the emulator's clock, the new one is taken at once on a fast or a slow machine
    // (elsewhere the provider waits the rest of the 5 s out).
    await onEmulator?.emulator.admin.advanceClock(SNAPSHOT_RATE_MS);
    current = withOverrides({ snapshot: { trigger: "v2" } });
    await program.setOperations(current);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: created() - 1 });
    expect(up.outputs.snapshotKey.value).not.toBe(before);
    const changes = (await suite.log.requests())
      .filter((request) => request.method !== "GET")
      .map((request) => request.route);
    expect(changes).toEqual([SNAPSHOT_ROUTE]);
  });

  extras.beforeDestroy?.(context);

  test("destroy forgets the operations without calling the service", async () => {
    const destroy = await program.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
    // The moved file stays where it was moved; then back where it was, as the run found it (a run
    // that fails before this has its sweep move it back).
    if (operations.move) {
      const { appId, path, to } = operations.move;
      await expect(suite.api.moveAppFile(appId, { path: to, to })).resolves.toBeUndefined();
      await suite.api.moveAppFile(appId, { path: to, to: path });
    }
  });
}
