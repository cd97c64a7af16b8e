import type { RunningEmulator } from "../../../emulator";
import { programStack } from "../harness/stack";
import { SYNCED_PREFIX, type SyncedShape, syncedFolderLifecycle } from "../lifecycles/synced-folder";

// A BlobFolder in synced mode through the TypeScript SDK (a dynamic BlobFolderSync resource): the
// lifecycle of lifecycles/synced-folder.ts.

function foldersConfig({ noPrefix }: SyncedShape) {
  const site = { directory: "public", managedObjects: false, ...(noPrefix ? {} : { prefix: SYNCED_PREFIX }) };
  return { value: JSON.stringify({ site }) };
}

syncedFolderLifecycle(async (first, _emulator: RunningEmulator, options) => {
  const program = await programStack({
    program: "blobs",
    ...options,
    config: { ...options.config, folders: foldersConfig(first) },
  });
  return {
    ...program,
    setFolder: (shape) => program.stack.setConfig("folders", foldersConfig(shape)),
    urls: async () => (await program.stack.outputs()).folders.value.site,
  };
});
