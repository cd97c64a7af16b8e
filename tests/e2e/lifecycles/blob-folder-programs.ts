import { yamlStack, type ProgramStackOptions } from "../harness/stack";
import type { FolderPlace, FolderProgram, FolderShape } from "./blob-folder";

/** A Pulumi YAML program declaring the BlobFolder lifecycle's folder (docs/resources/blob-folder.md's YAML example). */
function folderProgram({ secretDirectory, viaBob }: FolderShape, place: FolderPlace) {
  const site = {
    type: "squarecloud:index:BlobFolder",
    properties: {
      directory: secretDirectory ? { "fn::secret": "public" } : "public",
      prefix: place.prefix,
      expireDays: 30,
    },
    ...(viaBob ? { options: { provider: "${bob}" } } : {}),
  };
  const bob = {
    type: "pulumi:providers:squarecloud",
    properties: { apiKey: "${bobKey}", platformUrl: place.platformUrl, blobUrl: place.blobUrl },
  };
  return {
    ...(viaBob ? { config: { bobKey: { type: "string" } } } : {}),
    resources: { ...(viaBob ? { bob } : {}), site },
    outputs: { urls: "${site.urls}" },
  };
}

/** The `open` of the BlobFolder lifecycle for a YAML program of the stack `label`. */
export function openYamlFolder(label: string) {
  return async (
    first: FolderShape,
    place: FolderPlace,
    options: Omit<ProgramStackOptions, "program">,
  ): Promise<FolderProgram> => {
    const program = await yamlStack(label, folderProgram(first, place), options);
    return { ...program, setFolder: (shape) => program.setProgram(folderProgram(shape, place)) };
  };
}
