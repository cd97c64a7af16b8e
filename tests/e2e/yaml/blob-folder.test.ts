import { blobFolderLifecycle } from "../lifecycles/blob-folder";
import { openYamlFolder } from "../lifecycles/blob-folder-programs";

// A BlobFolder declared in a Pulumi YAML program (the folder of docs/resources/blob-folder.md's
// YAML example): the lifecycle of lifecycles/blob-folder.ts.

blobFolderLifecycle(openYamlFolder("native-folder"));
