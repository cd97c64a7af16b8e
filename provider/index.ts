import type { ResourceHandler } from "./handler";
import * as declared from "./kinds";
import { databaseHandler } from "./resources/database";
import { workspaceHandler } from "./resources/workspace";
import { workspaceMemberHandler } from "./resources/workspace-member";
import { blobObjectHandler } from "./resources/blob-object";
import { blobFolderSyncHandler } from "./resources/blob-folder-sync";
import { appSnapshotHandler } from "./resources/app-snapshot";
import { databaseRestoreHandler } from "./resources/database-restore";
import { appFileMoveHandler } from "./resources/app-file-move";

/** What the provider modules in state load at call time, by each declaration's `kind` (part of the state format). */
export const handlers: Record<string, ResourceHandler> = {
  [declared.database.kind]: databaseHandler,
  [declared.workspace.kind]: workspaceHandler,
  [declared.workspaceMember.kind]: workspaceMemberHandler,
  [declared.blobObject.kind]: blobObjectHandler,
  [declared.blobFolderSync.kind]: blobFolderSyncHandler,
  [declared.appSnapshot.kind]: appSnapshotHandler,
  [declared.databaseRestore.kind]: databaseRestoreHandler,
  [declared.appFileMove.kind]: appFileMoveHandler,
};

export { configure } from "./runtime";
