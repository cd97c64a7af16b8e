import { SEED_DATABASES, SEED_DATABASE_SNAPSHOT_VERSIONS } from "../../../emulator";
import { UNKNOWN } from "../../../provider/field-check";
import { databaseRestoreHandler } from "../../../provider/resources/database-restore";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The DatabaseRestore handler against the emulator. The client allows one restore request per
// database per 60 s of real time in a process, so each test that sends one uses another database.

const env = providerAgainstEmulator();
const RESTORES = "POST /v2/databases/:id/snapshots/restore";
const cacheVersion = SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache[0];
const restoreOf = (databaseId: string, snapshotId: string, versionId: string) => ({
  databaseId,
  snapshotId,
  versionId,
  confirm: true as const,
});

describe("check (no request)", () => {
  test("without confirm it refuses and names the snapshot's date as the point after which data is lost", async () => {
    const news = {
      ...restoreOf(SEED_DATABASES.aliceCache, SEED_DATABASES.aliceCache, cacheVersion),
      confirm: undefined,
      snapshotModified: "2026-05-01T03:00:00.000Z",
    };
    expect((await databaseRestoreHandler.check({}, news)).failures).toEqual([
      {
        property: "confirm",
        reason:
          `must be true to restore: restoring snapshot version "${cacheVersion}" overwrites database "${SEED_DATABASES.aliceCache}", ` +
          `and everything written to it after 2026-05-01T03:00:00.000Z (the snapshot's date) is lost for good`,
      },
    ]);
    expect(await env.emulator.admin.requests()).toEqual([]);
  });

  test("given by ids only, it says data written after the snapshot was taken is lost", async () => {
    const { failures } = await databaseRestoreHandler.check(
      {},
      { ...restoreOf("db", "db", cacheVersion), confirm: false },
    );
    expect(failures).toEqual([
      {
        property: "confirm",
        reason: expect.stringMatching(/after the snapshot was taken is lost for good, got false$/),
      },
    ]);
  });

  test("bad ids and dates are named with their rule and value; unknown values wait for up", async () => {
    const { failures } = await databaseRestoreHandler.check(
      {},
      { databaseId: "", snapshotId: "db", versionId: "latest", snapshotModified: "yesterday", confirm: true },
    );
    expect(failures).toEqual([
      { property: "databaseId", reason: `must be an id of 1 to 64 letters, digits, '_' or '-', got ""` },
      { property: "versionId", reason: 'must be a UUID (the versionId of a snapshot entry), got "latest"' },
      { property: "snapshotModified", reason: 'must be an ISO 8601 UTC timestamp, got "yesterday"' },
    ]);
    expect(
      (
        await databaseRestoreHandler.check(
          {},
          { databaseId: UNKNOWN, snapshotId: UNKNOWN, versionId: UNKNOWN, confirm: UNKNOWN },
        )
      ).failures,
    ).toEqual([]);
  });

  test("a changed database, snapshot or version restores again (replace)", async () => {
    const olds = { ...restoreOf("db", "db", cacheVersion), restoredAt: "2026-01-01T00:00:00.000Z" };
    expect(await databaseRestoreHandler.diff("id", olds, restoreOf("db", "db", cacheVersion))).toEqual({
      changes: false,
      replaces: [],
    });
    const other = SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache[1];
    expect(await databaseRestoreHandler.diff("id", olds, restoreOf("db", "db", other))).toEqual({
      changes: true,
      replaces: ["versionId"],
    });
  });

  test("pinning the ids of the entry already restored does not restore again", async () => {
    const fromEntry = {
      ...restoreOf("db", "db", cacheVersion),
      snapshotModified: "2026-01-01T00:00:00.000Z",
      restoredAt: "2026-01-02T00:00:00.000Z",
    };
    const pinned = restoreOf("db", "db", cacheVersion);
    expect(pinned).not.toHaveProperty("snapshotModified");
    expect(await databaseRestoreHandler.diff("id", fromEntry, pinned)).toEqual({ changes: false, replaces: [] });
  });
});

describe("restoring", () => {
  test("a version the database does not have: SNAPSHOT_NOT_FOUND says where to take one", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    await expect(
      databaseRestoreHandler.create(restoreOf(SEED_DATABASES.aliceCache, SEED_DATABASES.aliceCache, missing)),
    ).rejects.toThrow(
      new RegExp(
        `has no snapshot with versionId "${missing}"; take the versionId from its snapshot listing.*\\(restore database snapshot "${SEED_DATABASES.aliceCache}" failed: SNAPSHOT_NOT_FOUND`,
      ),
    );
  });

  test("another database's snapshot: SNAPSHOT_DATABASE_MISMATCH says which database it belongs to", async () => {
    const mainVersion = SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0];
    await expect(
      databaseRestoreHandler.create(restoreOf(SEED_DATABASES.aliceMain, SEED_DATABASES.aliceCache, mainVersion)),
    ).rejects.toThrow(
      new RegExp(
        `the snapshot belongs to database "${SEED_DATABASES.aliceCache}", not to "${SEED_DATABASES.aliceMain}".*SNAPSHOT_DATABASE_MISMATCH`,
      ),
    );
    expect(await env.count(RESTORES)).toBe(1);
  });

  test("a lost response is not followed by a second restore; the error says what to check", async () => {
    env.useAccount(1);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/databases/:id/snapshots/restore" },
      kind: "drop-after-commit",
      count: 1,
    });
    const version = SEED_DATABASE_SNAPSHOT_VERSIONS.bobLegacy[0];
    await expect(
      databaseRestoreHandler.create(restoreOf(SEED_DATABASES.bobLegacy, SEED_DATABASES.bobLegacy, version)),
    ).rejects.toThrow(/the restore may have started\. It is not sent again.*Check the database's data/);
    expect(await env.count(RESTORES)).toBe(1);
  });
});
