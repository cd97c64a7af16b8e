import { SEED_APPS, SEED_DATABASES, SEED_DATABASE_SNAPSHOT_VERSIONS } from "../../../emulator";
import { SNAPSHOT_RATE_MS } from "../../../emulator/models/rules";
import { beyondKeyCheck, type EmulatorSuite, emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { SecretScanner } from "../reliability/secret-scan";
import { MOVE_ROUTE, PRESIGNED_KEY, RESTORE_ROUTE, SNAPSHOT_ROUTE } from "./operation-routes";
import { type ProgramStack, type ProgramStackOptions, SECRET_SIG, type StateResource } from "../harness/stack";

/** The inputs of the three operations of a program, as the package schema names them. */
export interface Operations {
  snapshot: { appId: string; trigger: string };
  restore: { databaseId: string; snapshotId: string; versionId: string; confirm: boolean };
  move: { appId: string; path: string; to: string };
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
export interface OperationsLifecycleContext {
  suite: EmulatorSuite;
  program(): OperationsProgram;
  /** The operations the lifecycle's program declares at that point. */
  operations(): Operations;
}

/**
 * Tests a language adds on the lifecycle's stack, so that what it proves beyond the lifecycle costs
 * no stack of its own.
 */
export interface OperationsLifecycleExtras {
  /** After the refusals at preview, before the first up; must leave the lifecycle's operations declared. */
  afterPreviews?(context: OperationsLifecycleContext): void;
  /** After the new snapshot, before the destroy. */
  beforeDestroy?(context: OperationsLifecycleContext): void;
}

/**
 * AppSnapshot, DatabaseRestore and AppFileMove declared in a program, whatever its language and
 * whichever provider serves it (the TypeScript SDK's dynamic provider, or the native plugin for the
 * others): each operation runs once, by the up that creates it. Defines the tests of the calling
 * file; `open` makes the stack from the first operations.
 */
export function operationsLifecycle(
  open: (first: Operations, options: Omit<ProgramStackOptions, "program">) => Promise<OperationsProgram>,
  extras: OperationsLifecycleExtras = {},
): void {
  const suite = emulatorSuite();

  let program: OperationsProgram;

  const operations: Operations = {
    snapshot: { appId: SEED_APPS.aliceWebsite, trigger: "v1" },
    restore: {
      databaseId: SEED_DATABASES.aliceMain,
      snapshotId: SEED_DATABASES.aliceMain,
      versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0],
      confirm: true,
    },
    move: { appId: SEED_APPS.aliceWebsite, path: "index.js", to: "src/index.js" },
  };

  type Overrides = { [K in keyof Operations]?: Partial<Operations[K]> };

  function withOverrides(overrides: Overrides): Operations {
    return {
      snapshot: { ...operations.snapshot, ...overrides.snapshot },
      restore: { ...operations.restore, ...overrides.restore },
      move: { ...operations.move, ...overrides.move },
    };
  }

  /** The operations the program declares now. */
  let current = operations;
  const context: OperationsLifecycleContext = { suite, program: () => program, operations: () => current };

  async function stateOf(name: string): Promise<StateResource | undefined> {
    return (await program.resources()).find((resource) => resource.urn.endsWith(`::${name}`));
  }

  beforeAll(async () => {
    program = await open(operations, { config: emulatorConfig(suite.emulator) });
    suite.keep(program);
  });

  beforeEach(async () => {
    await suite.emulator.admin.clearRequests();
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

  test("an unconfirmed restore fails at preview, saying what would be lost, with no request", async () => {
    const message = await previewFailure({ restore: { confirm: false } });
    expect(message).toMatch(
      new RegExp(
        `confirm.*database "${SEED_DATABASES.aliceMain}".*after the snapshot was taken is lost for good, got false`,
      ),
    );
    expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
  });

  test("bad file paths fail at preview naming the field, the rule and the value, with no request", async () => {
    const message = await previewFailure({ move: { path: "../secrets.txt", to: "/etc/app.js" } });
    expect(message).toMatch(/path.*must not contain "\.", "\.\." or empty segments, got "\.\.\/secrets\.txt"/);
    expect(message).toMatch(/to.*must be relative to the application root \(no leading "\/"\), got "\/etc\/app\.js"/);
    expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
  });

  extras.afterPreviews?.(context);

  test("up performs each operation once; the snapshot's url and key are secrets, ciphertext in state", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    const counters = await suite.emulator.admin.counters();
    expect([counters[SNAPSHOT_ROUTE], counters[RESTORE_ROUTE], counters[MOVE_ROUTE]]).toEqual([1, 1, 1]);

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
      .add("API key", suite.emulator.accounts[0].apiKey);
    expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
    expect(program.backendText()).not.toMatch(PRESIGNED_KEY);
    expect(up.outputs.restoredAt.value).toEqual(expect.any(String));
    expect(up.outputs.movedAt.value).toEqual(expect.any(String));

    // The file is at its new path and no longer at the old one.
    await expect(
      suite.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "index.js", to: "main.js" }),
    ).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
    await expect(
      suite.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "src/index.js", to: "src/index.js" }),
    ).resolves.toBeUndefined();
  });

  test("a second up changes nothing and makes no request", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4 });
    expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
  });

  test("a new trigger replaces the snapshot: a new one is taken, the others stay as they are", async () => {
    const before = (await program.stack.outputs()).snapshotKey.value;
    // The first snapshot may be only moments old, and the service takes one per account every 5 s:
    // past that on the emulator's clock, the new one is taken at once on a fast or a slow machine.
    await suite.emulator.admin.advanceClock(SNAPSHOT_RATE_MS);
    current = withOverrides({ snapshot: { trigger: "v2" } });
    await program.setOperations(current);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 3 });
    expect(up.outputs.snapshotKey.value).not.toBe(before);
    const changes = (await suite.emulator.admin.requests())
      .filter((request) => request.method !== "GET")
      .map((request) => request.route);
    expect(changes).toEqual([SNAPSHOT_ROUTE]);
  });

  extras.beforeDestroy?.(context);

  test("destroy forgets the operations without calling the service", async () => {
    const destroy = await program.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
    // The moved file stays where it was moved.
    await expect(
      suite.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "src/index.js", to: "src/index.js" }),
    ).resolves.toBeUndefined();
  });
}
