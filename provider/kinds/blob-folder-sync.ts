import { z } from "zod";
import { isUnknown } from "../field-check";
import { stableJson } from "../stable-json";
import { blobObject, EXPIRY_RULE, objectName, offUnlessTrue } from "./blob-object";
import { declareKind, field, type InputsOf, type OutputsOf } from "./declaration";
import { NAME_RULE } from "./names";

/**
 * The file set of a BlobFolder in synced mode (`managedObjects: false`): one resource holds the
 * folder's manifest, and an update uploads only what is new or changed and deletes what left.
 */

/** What a BlobFolder's `directory` and `prefix` are, in both modes. */
export const FOLDER_TEXTS = {
  directory: "A directory relative to the project directory; every file below it becomes one object.",
  prefix: `Every object's prefix, ${NAME_RULE}: each id is \`<account>/<prefix>/<name>_...\`.`,
};

/** A BlobFolder's options for its objects, the same in both modes. */
export const folderOptions = {
  expireDays: field(blobObject.inputs.expireDays, `Days until the service deletes each object (${EXPIRY_RULE}).`),
  securityHash: field(
    blobObject.inputs.securityHash,
    "A long random hash in each id instead of a short content hash, so the URLs cannot be guessed.",
  ),
  autoDownload: field(
    blobObject.inputs.autoDownload,
    "The CDN makes browsers download the files instead of showing them.",
  ),
};

export const blobFolderSync = declareKind({
  name: "BlobFolderSync",
  kind: "blobFolderSync",
  description: `The files of a directory on the blob storage as one resource: what a BlobFolder declares with
\`managedObjects: false\`. Its state maps each file's path to its content hash and its object.

The provider's check reads the directory and hashes every file, so a preview shows whether anything
changed without a request; an update uploads only the new and changed files (a few at a time, within
the API's limit) and then deletes the objects of changed and removed files. A new prefix, expiry or
option replaces the whole set. A refresh reads the prefix's listing: an object deleted outside Pulumi
leaves the state, and the next update uploads its file again.`,
  inputs: {
    directory: field(
      z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }),
      FOLDER_TEXTS.directory,
    ),
    prefix: field(objectName, FOLDER_TEXTS.prefix),
    ...folderOptions,
  },
  outputs: {
    files: field(
      z.record(z.string(), z.string()),
      'The relative path ("/"-separated) of each file -> the hex sha256 of its content as uploaded.',
    ),
    objects: field(z.record(z.string(), z.string()), "The relative path of each file -> its object's id."),
    urls: field(z.record(z.string(), z.string()), "The relative path of each file -> its object's public URL."),
    syncedAt: field(z.string(), "ISO 8601, on the server's clock: when the set last uploaded or deleted."),
    leftovers: field(
      z.array(z.string()).optional(),
      "Ids of replaced objects whose delete failed; the next update deletes them.",
    ),
  },
  replaceOn: ["prefix", "expireDays", "securityHash", "autoDownload"],
  updateOn: ["directory"],
  changes: {
    // The directory stands for its files: the check reads them into `files` (never a program's
    // input), and a file's new hash, or an object left to delete, is a change of the directory.
    directory: (olds, news) =>
      isUnknown(news.directory) ||
      news.directory !== olds.directory ||
      news.files === undefined ||
      stableJson(olds.files) !== stableJson(news.files) ||
      (olds.leftovers?.length ?? 0) > 0
        ? "inPlace"
        : "none",
    securityHash: offUnlessTrue("securityHash"),
    autoDownload: offUnlessTrue("autoDownload"),
  },
  visibility: { notFound: "OBJECT_NOT_FOUND" },
  apis: ["platform", "blob"],
  import: {
    brings:
      "the objects under the prefix whose name and size match a file of the directory (the id is `<prefix>/<directory>`)",
    leavesOut: "securityHash and autoDownload, which a listing does not show",
  },
});

/** The inputs after check, which adds the manifest it read from the directory (`files`). */
export type BlobFolderSyncInputs = InputsOf<typeof blobFolderSync> & { files?: Record<string, string> };
export type BlobFolderSyncOutputs = OutputsOf<typeof blobFolderSync>;
