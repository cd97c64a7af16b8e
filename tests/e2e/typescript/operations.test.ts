import { SEED_APPS, SEED_DATABASES } from "../../../emulator";
import type { SnapshotEntry } from "../../../provider/client/payloads/platform";
import { beyondKeyCheck } from "../harness/emulator-env";
import { MOVE_ROUTE, PRESIGNED_KEY, RESTORE_ROUTE, SNAPSHOT_ROUTE } from "../lifecycles/operation-routes";
import { allThree, type OperationsLifecycleContext, operationsLifecycle } from "../lifecycles/operations";
import { declare, lifecycleDeclared, openOperationsProgram } from "../lifecycles/operations-programs";

// AppSnapshot, DatabaseRestore and AppFileMove through the real engine against the emulator: the
// lifecycle every language shares, with what the TypeScript SDK proves beyond it on the same
// stack (a restore of an entry of getSnapshots, a burst of snapshots, a second restore, a failed
// move), each scenario a change of the program's config.

async function failureOf(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => "",
    (err: Error) => String(err.message),
  );
}

/** The program lists database snapshots through getSnapshots when a restore names an entry. */
const LISTING_ROUTE = "GET /v2/users/snapshots";

/** A restore of the n-th newest snapshot of the cache database, as getSnapshots lists it. */
const fromEntry = (snapshotEntry: number, confirm?: boolean) => ({
  databaseId: SEED_DATABASES.aliceCache,
  snapshotEntry,
  confirm,
});

/** What getSnapshots hands to the program's restores, read here to check against. */
let cacheSnapshots: SnapshotEntry[];

operationsLifecycle(openOperationsProgram, {
  afterPreviews({ suite, program, operations }) {
    /** What reached the service besides the program's snapshot listing and the check of the key. */
    const requestsBesideTheListing = async () =>
      beyondKeyCheck(await suite.emulator.admin.requests()).filter((r) => r.route !== LISTING_ROUTE);

    test("an unconfirmed restore of a getSnapshots entry names the snapshot's date; given by ids without confirm, says what is lost; no request", async () => {
      cacheSnapshots = await suite.api.databaseSnapshots(SEED_DATABASES.aliceCache);
      await suite.emulator.admin.clearRequests();
      await declare(program(), { restores: { fromEntry: fromEntry(0, false) } });
      const dated = await failureOf(program().stack.preview());
      expect(dated).toMatch(
        new RegExp(
          `fromEntry.*confirm.*must be true to restore.*database "${SEED_DATABASES.aliceCache}".*after ${cacheSnapshots[0].modified} \\(the snapshot's date\\) is lost for good, got false`,
        ),
      );
      expect(dated).not.toMatch(PRESIGNED_KEY);

      // Given by ids only, the date is not known without a request, and check makes none.
      const { confirm: _left, ...byIds } = allThree(operations()).restore;
      await declare(program(), { restores: { byIds } });
      expect(await failureOf(program().stack.preview())).toMatch(
        new RegExp(
          `byIds.*confirm.*database "${SEED_DATABASES.aliceMain}".*after the snapshot was taken is lost for good`,
        ),
      );
      expect(await requestsBesideTheListing()).toEqual([]);
      await declare(program(), lifecycleDeclared(operations()));
    });
  },
  beforeDestroy: (context) => {
    restoreOfAnEntry(context);
    burstRestoreAgainAndAFailedMove(context);
  },
});

function restoreOfAnEntry({ suite, program, operations }: OperationsLifecycleContext) {
  test("a restore given a getSnapshots entry takes only its name, versionId and modified; the pre-signed key stays out of state", async () => {
    const declared = lifecycleDeclared(operations());
    await declare(program(), { ...declared, restores: { ...declared.restores, fromEntry: fromEntry(0, true) } });
    const up = await program().stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4, create: 1 });
    expect((await suite.emulator.admin.counters())[RESTORE_ROUTE]).toBe(1);
    expect(up.outputs.restores.value.fromEntry).toMatchObject({
      snapshotId: SEED_DATABASES.aliceCache,
      versionId: cacheSnapshots[0].versionId,
    });
    const restoreState = (await program().resources()).find((r) => r.urn.endsWith("DatabaseRestore::fromEntry"));
    expect(restoreState?.inputs).toMatchObject({ snapshotModified: cacheSnapshots[0].modified });
    expect(JSON.stringify(restoreState)).not.toMatch(/"key"/);
    // No pre-signed key at all: each listing signs anew, so the program's entry keys differ from
    // any copy this test could read, and only their shape can be looked for.
    expect(program().backendText()).not.toMatch(PRESIGNED_KEY);
  });
}

function burstRestoreAgainAndAFailedMove({ suite, program, operations }: OperationsLifecycleContext) {
  const statusesOf = async (route: string): Promise<number[]> =>
    (await suite.emulator.admin.requests()).filter((r) => r.route === route).map((r) => r.status);
  let restores: Record<string, unknown>;

  beforeEach(async () => {
    await suite.emulator.admin.clearFaults();
  });

  test("a new trigger and two new snapshots in one up stay within the rate limit and wait a KEEP_CALM out", async () => {
    const before = (await program().stack.outputs()).snapshots.value.snapshot;
    // Puts the emulator past the window of the lifecycle's snapshot, so the only 429 is the one injected here.
    await suite.emulator.admin.advanceClock(5_000);
    await suite.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "status",
      status: 429,
      code: "KEEP_CALM",
      count: 1,
    });
    const declared = lifecycleDeclared(operations());
    restores = { ...declared.restores, fromEntry: fromEntry(0, true) };
    const snapshots = {
      snapshot: { ...operations().snapshot, trigger: "v3" },
      second: { appId: SEED_APPS.aliceApi },
      third: { appId: SEED_APPS.aliceBot, trigger: { release: 7 } },
    };
    await declare(program(), { ...declared, snapshots, restores });

    const up = await program().stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4, replace: 1, create: 2 });
    const statuses = await statusesOf(SNAPSHOT_ROUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses).toHaveLength(4);
    expect(await suite.emulator.admin.faults()).toEqual([]);

    const after = up.outputs.snapshots.value;
    expect(after.snapshot.id).not.toBe(before.id);
    expect(after.snapshot.takenAt > before.takenAt).toBe(true);
    expect(Object.keys(after).sort()).toEqual(["second", "snapshot", "third"]);
    // The replaced snapshot left the state without any call to the service.
    expect(await statusesOf(MOVE_ROUTE)).toEqual([]);
    expect(await statusesOf(RESTORE_ROUTE)).toEqual([]);
  });

  test("a changed restore input restores again, once; operations dropped from the program call nothing", async () => {
    // The server allows one restore per database per 60 s of its clock; the previous restore of
    // this database is moved out of that window instead of waiting a minute.
    await suite.emulator.admin.advanceClock(60_000);
    restores = { ...restores, fromEntry: fromEntry(1, true) };
    await declare(program(), { ...lifecycleDeclared(operations()), snapshots: {}, restores });
    const up = await program().stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 3, replace: 1, delete: 3 });
    expect(await statusesOf(RESTORE_ROUTE)).toEqual([200]);
    expect(await statusesOf(SNAPSHOT_ROUTE)).toEqual([]);
    expect(up.outputs.restores.value.fromEntry.versionId).toBe(cacheSnapshots[1].versionId);
    expect(
      beyondKeyCheck(await suite.emulator.admin.requests())
        .filter((r) => r.route !== LISTING_ROUTE)
        .map((r) => r.route),
    ).toEqual([RESTORE_ROUTE]);
  });

  test("a move into a directory that does not exist fails clearly and is not recorded", async () => {
    const nodir = { appId: SEED_APPS.aliceApi, path: "README.md", to: "docs/README.md" };
    const declared = lifecycleDeclared(operations());
    await declare(program(), { ...declared, restores, moves: { ...declared.moves, nodir } });
    const message = await failureOf(program().stack.up());
    expect(message).toContain("DIRECTORY_NOT_FOUND");
    expect(message).toContain(`the destination directory "docs" does not exist in application "${SEED_APPS.aliceApi}"`);
    expect(message).toContain("move the file into an existing one");
    expect((await program().resources()).map((r) => r.urn)).not.toContainEqual(expect.stringMatching(/::nodir$/));
    await expect(
      suite.api.moveAppFile(SEED_APPS.aliceApi, { path: "README.md", to: "README.md" }),
    ).resolves.toBeUndefined();
  });
}
