import type { RunningEmulator } from "../../../emulator";
import { blobFolderLifecycle, FOLDER_PREFIX, type FolderShape } from "../lifecycles/blob-folder";
import { yamlStack } from "../harness/stack";

// A BlobFolder declared in a Pulumi YAML program (the folder of docs/resources/blob-folder.md's
// YAML example): the lifecycle of lifecycles/blob-folder.ts.

function folderProgram({ secretDirectory, viaBob }: FolderShape, emulator: RunningEmulator) {
  const site = {
    type: "squarecloud:index:BlobFolder",
    properties: {
      directory: secretDirectory ? { "fn::secret": "public" } : "public",
      prefix: FOLDER_PREFIX,
      expireDays: 30,
    },
    ...(viaBob ? { options: { provider: "${bob}" } } : {}),
  };
  const bob = {
    type: "pulumi:providers:squarecloud",
    properties: { apiKey: "${bobKey}", platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl },
  };
  return {
    ...(viaBob ? { config: { bobKey: { type: "string" } } } : {}),
    resources: { ...(viaBob ? { bob } : {}), site },
    outputs: { urls: "${site.urls}" },
  };
}

blobFolderLifecycle(async (first, emulator, options) => {
  const program = await yamlStack("native-folder", folderProgram(first, emulator), options);
  return { ...program, setFolder: (shape) => program.setProgram(folderProgram(shape, emulator)) };
});
