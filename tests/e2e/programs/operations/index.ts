// Declares the operations given in config `snapshots`, `restores` and `moves` (each an object:
// logical name -> args), so one program and one stack serve every operation scenario.
import * as pulumi from "@pulumi/pulumi";
import {
  AppFileMove,
  type AppFileMoveArgs,
  AppSnapshot,
  type AppSnapshotArgs,
  DatabaseRestore,
  type DatabaseRestoreArgs,
  getSnapshotsOutput,
} from "pulumi-squarecloud";

const config = new pulumi.Config();
const specs = <T>(key: string) => config.getObject<Record<string, T>>(key) ?? {};

export const snapshots = Object.fromEntries(
  Object.entries(specs<AppSnapshotArgs>("snapshots")).map(([key, args]) => {
    const snapshot = new AppSnapshot(key, args);
    return [key, { id: snapshot.id, url: snapshot.url, key: snapshot.key, takenAt: snapshot.takenAt }];
  }),
);

// Database snapshot entries straight from the data source, pre-signed `key` (a secret) included;
// a restore's `snapshotEntry: n` stands for the n-th newest snapshot of its database. Read only
// when a restore names an entry: a program without one makes no request but its operations'.
let databaseSnapshots: ReturnType<typeof getSnapshotsOutput> | undefined;
const listing = () => {
  databaseSnapshots ??= getSnapshotsOutput({ scope: "databases" });
  return databaseSnapshots;
};

export const restores = Object.fromEntries(
  Object.entries(specs<DatabaseRestoreArgs & { snapshotEntry?: number }>("restores")).map(
    ([key, { snapshotEntry, ...args }]) => {
      const snapshot =
        snapshotEntry === undefined
          ? undefined
          : listing().apply(({ entries }) => entries.filter((entry) => entry.name === args.databaseId)[snapshotEntry]);
      const restore = new DatabaseRestore(key, { ...args, snapshot });
      return [
        key,
        {
          id: restore.id,
          snapshotId: restore.snapshotId,
          versionId: restore.versionId,
          restoredAt: restore.restoredAt,
        },
      ];
    },
  ),
);

export const moves = Object.fromEntries(
  Object.entries(specs<AppFileMoveArgs>("moves")).map(([key, args]) => {
    const move = new AppFileMove(key, args);
    return [key, { id: move.id, movedAt: move.movedAt }];
  }),
);

// The outputs of the shared lifecycle (tests/e2e/lifecycles/operations.ts), of the operations it
// names snapshot, restore and move.
export const snapshotUrl = snapshots.snapshot?.url;
export const snapshotKey = snapshots.snapshot?.key;
export const takenAt = snapshots.snapshot?.takenAt;
export const restoredAt = restores.restore?.restoredAt;
export const movedAt = moves.move?.movedAt;
