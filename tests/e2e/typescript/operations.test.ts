import { SEED_APPS, SEED_DATABASES, SEED_DATABASE_SNAPSHOT_VERSIONS } from "../../../emulator";
import type { SnapshotEntry } from "../../../provider/client/payloads/platform";
import { beyondKeyCheck, emulatorConfig, emulatorSuite } from "../emulator-env";
import { MOVE_ROUTE, PRESIGNED_KEY, RESTORE_ROUTE, SNAPSHOT_ROUTE } from "../operation-routes";
import { programStack, type ProgramStack, SECRET_SIG } from "../stack";

// AppSnapshot, DatabaseRestore and AppFileMove through the real engine against the emulator, on
// one stack: each scenario changes the program's config and runs the engine again.

const suite = emulatorSuite();

interface Operations {
  snapshots?: Record<string, unknown>;
  restores?: Record<string, unknown>;
  moves?: Record<string, unknown>;
}

async function setOperations(program: ProgramStack, operations: Operations) {
  for (const key of ["snapshots", "restores", "moves"] as const) {
    await program.stack.setConfig(key, { value: JSON.stringify(operations[key] ?? {}) });
  }
}

async function failureOf(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => "",
    (err: Error) => String(err.message),
  );
}

/** The program lists database snapshots through getSnapshots on every run. */
const LISTING_ROUTE = "GET /v2/users/snapshots";

/** What reached the service besides the program's snapshot listing and the check of the key. */
async function requestsBesideTheListing() {
  return beyondKeyCheck(await suite.emulator.admin.requests()).filter((r) => r.route !== LISTING_ROUTE);
}

async function statusesOf(route: string): Promise<number[]> {
  return (await suite.emulator.admin.requests()).filter((r) => r.route === route).map((r) => r.status);
}

describe("operations: snapshots, restores and file moves run once", () => {
  let program: ProgramStack;
  let cacheSnapshots: SnapshotEntry[];
  let restores: Record<string, Record<string, unknown>>;
  const moves = { rename: { appId: SEED_APPS.aliceWebsite, path: "index.js", to: "src/index.js" } };
  const firstSnapshot = { first: { appId: SEED_APPS.aliceWebsite, trigger: "v1" } };

  beforeAll(async () => {
    // What the program's getSnapshots hands to its restores, read here to check against.
    cacheSnapshots = await suite.api.databaseSnapshots(SEED_DATABASES.aliceCache);
    program = suite.keep(await programStack({ program: "operations", config: emulatorConfig(suite.emulator) }));
    restores = {
      fromEntry: { databaseId: SEED_DATABASES.aliceCache, snapshotEntry: 0, confirm: true },
      byIds: {
        databaseId: SEED_DATABASES.aliceMain,
        snapshotId: SEED_DATABASES.aliceMain,
        versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0],
        confirm: true,
      },
    };
  });

  beforeEach(async () => {
    await suite.emulator.admin.clearFaults();
    await suite.emulator.admin.clearRequests();
  });

  test("an unconfirmed restore fails at preview, saying what would be lost, with no request", async () => {
    await setOperations(program, { restores: { fromEntry: { ...restores.fromEntry, confirm: false } } });
    const fromEntry = await failureOf(program.stack.preview());
    expect(fromEntry).toMatch(
      new RegExp(
        `fromEntry.*confirm.*must be true to restore.*database "${SEED_DATABASES.aliceCache}".*after ${cacheSnapshots[0].modified} \\(the snapshot's date\\) is lost for good, got false`,
      ),
    );
    expect(fromEntry).not.toMatch(PRESIGNED_KEY);

    // Given by ids only, the date is not known without a request, and check makes none.
    await setOperations(program, { restores: { byIds: { ...restores.byIds, confirm: undefined } } });
    const byIds = await failureOf(program.stack.preview());
    expect(byIds).toMatch(
      new RegExp(
        `byIds.*confirm.*database "${SEED_DATABASES.aliceMain}".*after the snapshot was taken is lost for good`,
      ),
    );
    expect(await requestsBesideTheListing()).toEqual([]);
  });

  test("bad file paths fail at preview naming the field, the rule and the value", async () => {
    await setOperations(program, {
      moves: { bad: { appId: SEED_APPS.aliceWebsite, path: "../secrets.txt", to: "/etc/app.js" } },
    });
    const message = await failureOf(program.stack.preview());
    expect(message).toMatch(/bad.*path.*must not contain "\.", "\.\." or empty segments, got "\.\.\/secrets\.txt"/);
    expect(message).toMatch(
      /bad.*to.*must be relative to the application root \(no leading "\/"\), got "\/etc\/app\.js"/,
    );
    expect(await requestsBesideTheListing()).toEqual([]);
  });

  test("up performs each operation once; the snapshot's url and key are ciphertext in state", async () => {
    await setOperations(program, { snapshots: firstSnapshot, restores, moves });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });

    const counters = await suite.emulator.admin.counters();
    expect(counters[SNAPSHOT_ROUTE]).toBe(1);
    expect(counters[RESTORE_ROUTE]).toBe(2);
    expect(counters[MOVE_ROUTE]).toBe(1);

    const snapshot = up.outputs.snapshots.value.first;
    expect(snapshot.url).toMatch(/^https:\/\/.*\.zip\?/);
    expect(snapshot.url.endsWith(snapshot.key)).toBe(true);
    const state = (await program.resources()).find((r) => r.urn.endsWith("AppSnapshot::first"));
    for (const field of ["url", "key"]) {
      expect(state?.outputs?.[field]).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
    }
    const backend = program.backendText();
    for (const plaintext of [snapshot.url, snapshot.key, suite.emulator.accounts[0].apiKey]) {
      expect(backend).not.toContain(plaintext);
    }
    // No pre-signed key at all: each listing signs anew, so the program's entry keys differ from
    // any copy this test could read, and only their shape can be looked for.
    expect(backend).not.toMatch(PRESIGNED_KEY);

    // The restore took only name, versionId and modified from the entry.
    expect(up.outputs.restores.value.fromEntry).toMatchObject({
      snapshotId: SEED_DATABASES.aliceCache,
      versionId: cacheSnapshots[0].versionId,
    });
    const restoreState = (await program.resources()).find((r) => r.urn.endsWith("DatabaseRestore::fromEntry"));
    expect(restoreState?.inputs).toMatchObject({ snapshotModified: cacheSnapshots[0].modified });
    expect(JSON.stringify(restoreState)).not.toMatch(/"key"/);

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
    expect(up.summary.resourceChanges).toEqual({ same: 5 });
    expect(await requestsBesideTheListing()).toEqual([]);
  });

  test("a new trigger takes a new snapshot; a burst of three in one up stays within the rate limit and waits a KEEP_CALM out", async () => {
    const before = (await program.stack.outputs()).snapshots.value.first;
    // Puts the emulator past the window of the snapshot of the previous test, so the only 429 is
    // the one injected here.
    await suite.emulator.admin.advanceClock(5_000);
    await suite.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/apps/:id/snapshots" },
      kind: "status",
      status: 429,
      code: "KEEP_CALM",
      count: 1,
    });
    const snapshots = {
      first: { ...firstSnapshot.first, trigger: "v2" },
      second: { appId: SEED_APPS.aliceApi },
      third: { appId: SEED_APPS.aliceBot, trigger: { release: 7 } },
    };
    await setOperations(program, { snapshots, restores, moves });

    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4, replace: 1, create: 2 });
    const statuses = await statusesOf(SNAPSHOT_ROUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses).toHaveLength(4);
    expect(await suite.emulator.admin.faults()).toEqual([]);

    const after = up.outputs.snapshots.value;
    expect(after.first.id).not.toBe(before.id);
    expect(after.first.takenAt > before.takenAt).toBe(true);
    expect(Object.keys(after).sort()).toEqual(["first", "second", "third"]);
    // The replaced snapshot left the state without any call to the service.
    expect(await statusesOf(MOVE_ROUTE)).toEqual([]);
    expect(await statusesOf(RESTORE_ROUTE)).toEqual([]);
  });

  test("a changed restore input restores again, once", async () => {
    // The server allows one restore per database per 60 s of its clock; the previous restore of
    // this database is moved out of that window instead of waiting a minute.
    await suite.emulator.admin.advanceClock(60_000);
    restores = { ...restores, fromEntry: { ...restores.fromEntry, snapshotEntry: 1 } };
    await setOperations(program, { snapshots: {}, restores, moves });
    // The snapshots leave the program: dropping them must not call the service either.
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 3, replace: 1, delete: 3 });
    expect(await statusesOf(RESTORE_ROUTE)).toEqual([200]);
    expect(await statusesOf(SNAPSHOT_ROUTE)).toEqual([]);
    expect(up.outputs.restores.value.fromEntry.versionId).toBe(cacheSnapshots[1].versionId);
    expect((await requestsBesideTheListing()).map((r) => r.route)).toEqual([RESTORE_ROUTE]);
  });

  test("a move into a directory that does not exist fails clearly and is not recorded", async () => {
    const nodir = { appId: SEED_APPS.aliceApi, path: "README.md", to: "docs/README.md" };
    await setOperations(program, { restores, moves: { ...moves, nodir } });
    const message = await failureOf(program.stack.up());
    expect(message).toContain("DIRECTORY_NOT_FOUND");
    expect(message).toContain(`the destination directory "docs" does not exist in application "${SEED_APPS.aliceApi}"`);
    expect(message).toContain("move the file into an existing one");
    expect((await program.resources()).map((r) => r.urn)).not.toContainEqual(expect.stringMatching(/::nodir$/));
    await expect(
      suite.api.moveAppFile(SEED_APPS.aliceApi, { path: "README.md", to: "README.md" }),
    ).resolves.toBeUndefined();
  });

  test("destroy forgets the operations without calling the service", async () => {
    const destroy = await program.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(await requestsBesideTheListing()).toEqual([]);
    // The moved file stays where it was moved.
    await expect(
      suite.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "src/index.js", to: "src/index.js" }),
    ).resolves.toBeUndefined();
  });
});
