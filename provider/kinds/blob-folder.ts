import { z } from "zod";
import { objectName } from "./blob-object";
import { FOLDER_TEXTS, folderOptions } from "./blob-folder-sync";
import { type ComponentDeclaration, field } from "./declaration";

/** The BlobFolder component: one BlobObject per file below a directory, with the folder's options. */
export const blobFolder: ComponentDeclaration = {
  name: "BlobFolder",
  description: `A directory published to the blob storage: one BlobObject per file below it, all with the
folder's options, each a child of the folder.

Each object's name (and its resource's name, \`<folder>-<object name>\`) comes from the file's path
relative to the directory, sanitized to the characters the API allows; \`urls\` maps those relative
paths ("css/site.css") to the public URLs. Two paths that would make the same name, or a
directory that does not exist, are refused when the folder is declared, so at preview. Files are
read then too: add or remove one and the next update adds or removes its object; a changed file
replaces its object.

With \`managedObjects: false\` (synced mode) the folder holds one BlobFolderSync resource instead,
whose state maps each path to its content hash and object: an update uploads only the new and
changed files and deletes what left, so a folder of thousands of files is one resource.`,
  inputs: {
    directory: field(z.string(), FOLDER_TEXTS.directory, { sdkPlain: true }),
    prefix: field(objectName.optional(), FOLDER_TEXTS.prefix),
    ...folderOptions,
    managedObjects: field(
      z.boolean({ error: "must be true or false" }).optional(),
      "`false`: one BlobFolderSync resource holds every file (synced mode), instead of one BlobObject per file (the default, `true`). Known when the program runs.",
      { sdkPlain: true },
    ),
  },
  outputs: {
    urls: field(
      z.record(z.string(), z.string()),
      'The relative path ("/"-separated) of each file -> its object\'s public URL.',
    ),
  },
};
