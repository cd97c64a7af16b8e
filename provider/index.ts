import type { ResourceHandler } from "./handler";
import { databaseHandler } from "./resources/database";
import { workspaceHandler } from "./resources/workspace";
import { workspaceMemberHandler } from "./resources/workspace-member";
import { blobObjectHandler } from "./resources/blob-object";
import { appSnapshotHandler } from "./resources/app-snapshot";
import { databaseRestoreHandler } from "./resources/database-restore";
import { appFileMoveHandler } from "./resources/app-file-move";

/**
 * What the serialized stubs load at call time (`require("pulumi-squarecloud/provider")`): one
 * handler per resource kind, and the shared `configure`. Kinds are part of the state format:
 * a kind, once released, keeps its name.
 */
export const handlers: Record<string, ResourceHandler> = {
  database: databaseHandler,
  workspace: workspaceHandler,
  workspaceMember: workspaceMemberHandler,
  blobObject: blobObjectHandler,
  appSnapshot: appSnapshotHandler,
  databaseRestore: databaseRestoreHandler,
  appFileMove: appFileMoveHandler,
};

export { configure } from "./runtime";
