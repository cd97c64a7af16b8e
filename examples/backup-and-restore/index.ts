// Backups of what already runs on the account: a snapshot of an application's files, the list of
// a database's snapshots, and a restore of one of them that happens only when asked for twice.
// Square Cloud takes database snapshots by itself (there is no call that takes one), so the
// database is one that has been running for a while, given by id; a database this program
// created would have none yet.
//
//   pulumi config set squarecloud:apiKey --secret
//   pulumi config set appId <application id>
//   pulumi config set databaseId <database id>
//   pulumi up                                    # takes the app snapshot, lists the database's snapshots
//
// To roll the database back, name the snapshot by its versionId (from the `databaseSnapshots` or
// `latestDatabaseSnapshot` output):
//
//   pulumi config set restoreVersionId <versionId>
//   pulumi preview        # fails on purpose and says what would be lost: everything written after the snapshot's date
//   pulumi config set confirmRestore true
//   pulumi up             # restores, once
//
// Later runs restore nothing while restoreVersionId stays the same; another versionId restores
// again. Once restored, remove both keys together, so that the next restore stops at the preview
// again (confirmRestore left false beside restoreVersionId would fail every preview instead):
//
//   pulumi config rm restoreVersionId
//   pulumi config rm confirmRestore
//   pulumi up             # deletes the DatabaseRestore from the state: a delete only forgets it,
//                         # no request is made and the data stays as restored
//
// `pulumi destroy` forgets it the same way.
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const config = new pulumi.Config();
const appId = config.require("appId");
const databaseId = config.require("databaseId");

// ---- the application's files: a snapshot on the first up, another whenever backupTrigger changes

const appBackup = new sq.AppSnapshot("app-backup", { appId, trigger: config.get("backupTrigger") ?? "first" });

// ---- the database's snapshots, newest first (one read of the listing serves both calls)

const snapshots = sq
  .getSnapshotsOutput({ scope: "databases" })
  .entries.apply((entries) => entries.filter((entry) => entry.name === databaseId));
const latest = sq.getLatestDatabaseSnapshotOutput({ databaseId });

// ---- the restore, declared only when a snapshot is named

const restoreVersionId = config.get("restoreVersionId");
const restore =
  restoreVersionId === undefined
    ? undefined
    : new sq.DatabaseRestore("restore", {
        databaseId,
        snapshot: snapshots.apply((entries) => {
          const entry = entries.find((candidate) => candidate.versionId === restoreVersionId);
          if (!entry) {
            const known =
              entries.map((candidate) => `${candidate.versionId} (${candidate.modified})`).join(", ") || "none";
            throw new Error(
              `restoreVersionId "${restoreVersionId}" is not a snapshot of database "${databaseId}"; its snapshots: ${known}`,
            );
          }
          return entry;
        }),
        // Restoring overwrites newer data for good: until this is true the preview fails and says what would be lost.
        confirm: config.getBoolean("confirmRestore") ?? false,
      });

export const appBackupTakenAt = appBackup.takenAt;
export const appBackupUrl = appBackup.url; // secret: a pre-signed download link of the ZIP archive

// Each snapshot's pre-signed `key` is left out: only what names a snapshot is shown.
export const databaseSnapshots = snapshots.apply((entries) =>
  entries.map(({ versionId, modified, size }) => ({ versionId, modified, size })),
);
export const latestDatabaseSnapshot = { versionId: latest.versionId, modified: latest.modified };

export const restored = restore && {
  versionId: restore.versionId,
  snapshotModified: restore.snapshotModified,
  restoredAt: restore.restoredAt,
};
