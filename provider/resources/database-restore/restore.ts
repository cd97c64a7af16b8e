import { ApiError } from "../../client";
import { apiClient } from "../../runtime";
import type { DatabaseRestoreInputs } from "../../kinds/database-restore";

/** What to do about each refusal of a restore the user can act on. */
const ADVICE: Record<string, (inputs: DatabaseRestoreInputs) => string> = {
  SNAPSHOT_NOT_FOUND: (i) =>
    `database "${i.snapshotId}" has no snapshot with versionId "${i.versionId}"; take the versionId from its ` +
    `snapshot listing (getSnapshots with scope "databases")`,
  SNAPSHOT_DATABASE_MISMATCH: (i) =>
    `the snapshot belongs to database "${i.snapshotId}", not to "${i.databaseId}"; restore it into ` +
    `"${i.snapshotId}", or choose a snapshot of "${i.databaseId}"`,
  INVALID_VERSION_ID: (i) =>
    `versionId "${i.versionId}" is not a snapshot version; take it from a snapshot entry's versionId`,
  INVALID_SNAPSHOT_ID: (i) => `snapshotId "${i.snapshotId}" is not a database id; take it from a snapshot entry's name`,
  DATABASE_NOT_FOUND: (i) => `database "${i.databaseId}" does not exist in the account of the configured API key`,
};

/** Never sent again after a lost answer: nothing shows whether a restore started, and a second wipes newer data. */
export async function restoreOnce(inputs: DatabaseRestoreInputs): Promise<void> {
  try {
    await apiClient().restoreDatabaseSnapshot(inputs.databaseId, {
      snapshotId: inputs.snapshotId,
      versionId: inputs.versionId,
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.mayHaveCommitted) {
      throw new Error(
        `restore of database "${inputs.databaseId}" from snapshot version "${inputs.versionId}": there was no usable ` +
          `response (${err.code}), so the restore may have started. It is not sent again, since a second restore would ` +
          `also overwrite what was written in between. Check the database's data; run pulumi up again only to restore ` +
          `(again): this resource was not recorded, so the next up sends the restore.`,
      );
    }
    const advice = ADVICE[err.code];
    throw advice ? new Error(`${advice(inputs)} (${err.message})`) : err;
  }
}
