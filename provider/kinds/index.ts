import { appFileMove } from "./app-file-move";
import { appSnapshot } from "./app-snapshot";
import { blobFolder } from "./blob-folder";
import { blobFolderSync } from "./blob-folder-sync";
import { blobObject } from "./blob-object";
import { database } from "./database";
import { databaseRestore } from "./database-restore";
import { workspace } from "./workspace";
import { workspaceMember } from "./workspace-member";

/** Every resource kind the package serves, in the order its docs list them. */
export const kinds = [
  database,
  workspace,
  workspaceMember,
  blobObject,
  blobFolderSync,
  appSnapshot,
  databaseRestore,
  appFileMove,
] as const;

/** Every component the package serves: resources made of the kinds' resources. */
export const components = [blobFolder] as const;

export {
  appFileMove,
  appSnapshot,
  blobFolder,
  blobFolderSync,
  blobObject,
  database,
  databaseRestore,
  workspace,
  workspaceMember,
};
export type { AnyKind, ComponentDeclaration, KindDeclaration } from "./declaration";
