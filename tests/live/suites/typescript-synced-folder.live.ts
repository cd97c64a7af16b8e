import { syncedFolderLifecycle } from "../../e2e/lifecycles/synced-folder";
import { openSyncedProgram } from "../../e2e/lifecycles/synced-folder-programs";
import { liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// The synced BlobFolder lifecycle (`managedObjects: false`) of the TypeScript SDK (a dynamic
// BlobFolderSync resource) against the service: three to four objects of 1 to 2 KB under the run's
// prefix, with no expiry (the run's sweep deletes any it leaves).

syncedFolderLifecycle(openSyncedProgram, { suite: liveSuite, prefix: `${runnerSettings().runPrefix}sync` });
