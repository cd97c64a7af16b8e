// Module by module, as in blob-folder-files.ts: the native plugin bundles this file.
import type { Input, Output } from "@pulumi/pulumi/output";
import { blobFolder } from "../kinds/blob-folder";
import { userError } from "../user-error";
import { type FolderObject, type FolderOptions, folderObjects, urlsOf } from "./blob-folder-files";

/**
 * What a BlobFolder declares, the one code of the TypeScript SDK's class (sdk/nodejs/blob-folder.ts)
 * and the plugin's `construct` (plugin/blob-folder.ts). Each passes the resources it makes its
 * children with: the SDK's classes (dynamic resources), or the native ones the plugin serves.
 */
export interface FolderChildren<
  Obj extends { url: Output<string> },
  Sync extends { urls: Output<Record<string, string>> },
> {
  /** One file's BlobObject. */
  object(resourceName: string, args: FolderObject["args"]): Obj;
  /** Synced mode's one BlobFolderSync, under the folder's own name. */
  synced(args: FolderOptions & { directory: Input<string> }): Sync;
}

export interface DeclaredFolder<Obj, Sync> {
  /** Relative path ("/"-separated) to the object's public URL. */
  urls: Output<Record<string, string>>;
  /** Relative path to its BlobObject; empty in synced mode. */
  objects: Record<string, Obj>;
  /** In synced mode (`managedObjects: false`), the one resource that holds every file. */
  files?: Sync;
}

/** What each object takes from the folder: the declaration's inputs but the directory and the mode. */
const OPTIONS = Object.keys(blobFolder.inputs).filter(
  (input) => input !== "directory" && input !== "managedObjects",
) as (keyof FolderOptions)[];

/** The children of the folder `name` for its inputs, as given by a program of any language. */
export function declareFolder<
  Obj extends { url: Output<string> },
  Sync extends { urls: Output<Record<string, string>> },
>(name: string, inputs: Record<string, unknown>, children: FolderChildren<Obj, Sync>): DeclaredFolder<Obj, Sync> {
  const { directory, managedObjects } = inputs;
  const options = Object.fromEntries(OPTIONS.map((option) => [option, inputs[option]])) as FolderOptions;
  if (managedObjects !== undefined && typeof managedObjects !== "boolean")
    throw userError(
      "BlobFolder: managedObjects must be true or false, known when the program runs (not a secret or another resource's output)",
    );
  if (managedObjects === false) {
    // One resource holds every file; its check reads the directory, so any directory input will do.
    const files = children.synced({ directory: directory as Input<string>, ...options });
    return { urls: files.urls, objects: {}, files };
  }
  // The files are listed when the folder is declared, at preview too: the path must be known then.
  // A secret or another resource's output arrives as an Output instead.
  if (typeof directory !== "string")
    throw userError(
      "BlobFolder: directory must be a plain path, known when the program runs (not a secret or another resource's output)",
    );
  const objects: Record<string, Obj> = {};
  for (const object of folderObjects(name, directory, options)) {
    objects[object.relativePath] = children.object(object.resourceName, object.args);
  }
  const urls = Object.fromEntries(Object.entries(objects).map(([relativePath, object]) => [relativePath, object.url]));
  return { urls: urlsOf(urls), objects };
}
