import { yamlStack } from "../stack";
import { SYNCED_PREFIX, type SyncedShape, syncedFolderLifecycle } from "../synced-folder-lifecycle";

// A BlobFolder in synced mode declared in a Pulumi YAML program: the native plugin's construct
// declares one native BlobFolderSync; the lifecycle of synced-folder-lifecycle.ts.

function folderProgram({ noPrefix }: SyncedShape) {
  const site = {
    type: "squarecloud:index:BlobFolder",
    properties: { directory: "public", managedObjects: false, ...(noPrefix ? {} : { prefix: SYNCED_PREFIX }) },
  };
  return { resources: { site }, outputs: { urls: "${site.urls}" } };
}

syncedFolderLifecycle(async (first, _emulator, options) => {
  const program = await yamlStack("native-synced", folderProgram(first), options);
  return {
    ...program,
    setFolder: (shape) => program.setProgram(folderProgram(shape)),
    urls: async () => (await program.stack.outputs()).urls.value,
  };
});
