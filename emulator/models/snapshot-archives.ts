import { iso } from "../clock";
import type { AppSnapshotRecord, DatabaseSnapshotRecord } from "../state";
import { storedZip } from "./zip";

/**
 * The archive a snapshot download serves, built from its record on each call (the same record
 * gives the same bytes): the emulator keeps no application or database contents, so each file is
 * a line naming what it stands for.
 */
export function appSnapshotArchive(snapshot: AppSnapshotRecord): Buffer {
  // State saved before snapshots kept their files has none to list.
  const files = snapshot.files ?? [];
  return storedZip(
    files.map((file) => ({
      name: file,
      data: Buffer.from(`${file} of application ${snapshot.appId}, snapshot of ${iso(snapshot.modified)}\n`),
    })),
  );
}

export function databaseSnapshotArchive(snapshot: DatabaseSnapshotRecord): Buffer {
  return storedZip([
    {
      name: `${snapshot.databaseId}.dump`,
      data: Buffer.from(`database ${snapshot.databaseId}, version ${snapshot.versionId}, ${iso(snapshot.modified)}\n`),
    },
  ]);
}
