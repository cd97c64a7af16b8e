import { programStack, type ProgramStackOptions } from "../harness/stack";
import type { SyncedPlace, SyncedProgram, SyncedShape } from "./synced-folder";

function foldersConfig({ noPrefix }: SyncedShape, { prefix }: SyncedPlace) {
  const site = { directory: "public", managedObjects: false, ...(noPrefix ? {} : { prefix }) };
  return { value: JSON.stringify({ site }) };
}

/** The `open` of the synced BlobFolder lifecycle for the TypeScript program tests/e2e/programs/blobs (the dynamic provider). */
export async function openSyncedProgram(
  first: SyncedShape,
  place: SyncedPlace,
  options: Omit<ProgramStackOptions, "program">,
): Promise<SyncedProgram> {
  const program = await programStack({
    program: "blobs",
    ...options,
    config: { ...options.config, folders: foldersConfig(first, place) },
  });
  return {
    ...program,
    setFolder: (shape) => program.stack.setConfig("folders", foldersConfig(shape, place)),
    urls: async () => (await program.stack.outputs()).folders.value.site,
  };
}
