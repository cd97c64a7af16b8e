export { Database } from "./database";
export type { DatabaseArgs } from "./database";
export { AppSnapshot } from "./app-snapshot";
export type { AppSnapshotArgs } from "./app-snapshot";
export { DatabaseRestore } from "./database-restore";
export type { DatabaseRestoreArgs, RestorableSnapshot } from "./database-restore";
export { AppFileMove } from "./app-file-move";
export type { AppFileMoveArgs } from "./app-file-move";
export * from "./data";
