import { blobFolderLifecycle } from "../../e2e/lifecycles/blob-folder";
import { openYamlFolder } from "../../e2e/lifecycles/blob-folder-programs";
import { liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// The BlobFolder lifecycle of a Pulumi YAML program (the native plugin's component, one BlobObject
// per file) against the service: three to four objects of 1 to 2 KB under the run's prefix,
// expiring after 30 days should the run leak them.

blobFolderLifecycle(openYamlFolder("live-yaml-folder"), {
  suite: liveSuite,
  prefix: `${runnerSettings().runPrefix}fold`,
});
