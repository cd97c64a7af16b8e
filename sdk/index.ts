export { Database } from "./database";
export type { DatabaseArgs } from "./database";
export { BlobObject } from "./blob-object";
export type { BlobObjectArgs } from "./blob-object";
export { BlobFolder } from "./blob-folder";
export type { BlobFolderArgs } from "./blob-folder";
