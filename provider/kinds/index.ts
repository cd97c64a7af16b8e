import { appFileMove } from "./app-file-move";
import { appSnapshot } from "./app-snapshot";
import { blobObject } from "./blob-object";
import { database } from "./database";
import { databaseRestore } from "./database-restore";
import { workspace } from "./workspace";
import { workspaceMember } from "./workspace-member";

/** Every resource kind the package serves, in the order its docs list them. */
export const kinds = [database, workspace, workspaceMember, blobObject, appSnapshot, databaseRestore, appFileMove] as const;

export { appFileMove, appSnapshot, blobObject, database, databaseRestore, workspace, workspaceMember };
export type { AnyKind, KindDeclaration } from "./declaration";
