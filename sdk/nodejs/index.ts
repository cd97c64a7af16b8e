/**
 * The TypeScript SDK: resource classes and data sources. Named `sdk` in the API reference, the name
 * its pages and links use.
 *
 * @module sdk
 */

export { Database } from "./database";
export type { DatabaseArgs } from "./database";
export { Workspace } from "./workspace";
export type { WorkspaceArgs } from "./workspace";
export { WorkspaceMember } from "./workspace-member";
export type { WorkspaceMemberArgs } from "./workspace-member";
export { BlobObject } from "./blob-object";
export type { BlobObjectArgs } from "./blob-object";
export { BlobFolder } from "./blob-folder";
export type { BlobFolderArgs } from "./blob-folder";
export { BlobFolderSync } from "./blob-folder-sync";
export type { BlobFolderSyncArgs } from "./blob-folder-sync";
export { AppSnapshot } from "./app-snapshot";
export type { AppSnapshotArgs } from "./app-snapshot";
export { DatabaseRestore } from "./database-restore";
export type { DatabaseRestoreArgs } from "./database-restore";
export type { RestorableSnapshot } from "./hooks/database-restore";
export { AppFileMove } from "./app-file-move";
export type { AppFileMoveArgs } from "./app-file-move";
export * from "./functions";
