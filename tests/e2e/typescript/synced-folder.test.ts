import { syncedFolderLifecycle } from "../lifecycles/synced-folder";
import { openSyncedProgram } from "../lifecycles/synced-folder-programs";

// A BlobFolder in synced mode through the TypeScript SDK (a dynamic BlobFolderSync resource): the
// lifecycle of lifecycles/synced-folder.ts.

syncedFolderLifecycle(openSyncedProgram);
