import { blobObjectLifecycle } from "../../e2e/lifecycles/blob-object";
import { openBlobProgram } from "../../e2e/lifecycles/blob-object-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// The BlobObject lifecycle of the TypeScript SDK (its dynamic provider) against the service: three
// objects of 2 to 3 KB under the run's prefix, `data` expiring after a day should the run leak it.

const prefix = `${runnerSettings().runPrefix}ts`;

blobObjectLifecycle<LiveSuite>(prefix, openBlobProgram(prefix), {}, liveSuite);
