/** What the tests of AppSnapshot, DatabaseRestore and AppFileMove, on both paths, look for in the emulator's request log and in state. */

export const SNAPSHOT_ROUTE = "POST /v2/apps/:id/snapshots";
export const RESTORE_ROUTE = "POST /v2/databases/:id/snapshots/restore";
export const MOVE_ROUTE = "PATCH /v2/apps/:id/files";

/** What every pre-signed snapshot key carries (emulator/models/presign.ts). */
export const PRESIGNED_KEY = /AWSAccessKeyId=|Signature=/;
