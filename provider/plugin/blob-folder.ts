import { typeToken } from "../tokens";
import type { Inputs, Output } from "@pulumi/pulumi/output";
import {
  ComponentResource,
  type ComponentResourceOptions,
  CustomResource,
  type CustomResourceOptions,
} from "@pulumi/pulumi/resource";
import { folderObjects, type FolderOptions, urlsOf } from "../components/blob-folder-files";
import { userError } from "../user-error";
import { blobFolder, blobFolderSync, blobObject } from "../kinds";
import type { ComponentResult } from "./construct";

/**
 * The BlobFolder component in programs of other languages than TypeScript: the same objects, names
 * and messages as the TypeScript SDK's class (sdk/nodejs/blob-folder.ts), its children the native
 * `squarecloud:index:BlobObject` this plugin serves.
 */
export function constructBlobFolder(name: string, inputs: Inputs, opts: ComponentResourceOptions): ComponentResult {
  const folder = new NativeBlobFolder(name, inputs, opts);
  return { urn: folder.urn, state: { urls: folder.urls } };
}

class NativeBlobFolder extends ComponentResource {
  readonly urls: Output<Record<string, string>>;

  constructor(name: string, inputs: Inputs, opts: ComponentResourceOptions) {
    super(typeToken(blobFolder.name), name, {}, opts);
    const { directory, prefix, expireDays, securityHash, autoDownload, managedObjects } = inputs;
    if (managedObjects !== undefined && typeof managedObjects !== "boolean")
      throw userError(
        "BlobFolder: managedObjects must be true or false, known when the program runs (not a secret or another resource's output)",
      );
    if (managedObjects === false) {
      // One resource holds every file; its check reads the directory, so any directory input will do.
      const options = { directory, prefix, expireDays, securityHash, autoDownload };
      this.urls = new NativeResource(blobFolderSync.name, name, options, ["urls"], { parent: this }).urls;
      this.registerOutputs({ urls: this.urls });
      return;
    }
    // The files are listed when the folder is declared, at preview too: the path must be known then.
    // A secret or another resource's output arrives as an Output instead.
    if (typeof directory !== "string")
      throw userError(
        "BlobFolder: directory must be a plain path, known when the program runs (not a secret or another resource's output)",
      );
    const options: FolderOptions = { prefix, expireDays, securityHash, autoDownload };
    const urls: Record<string, Output<string>> = {};
    for (const object of folderObjects(name, directory, options)) {
      urls[object.relativePath] = new NativeResource(blobObject.name, object.resourceName, object.args, ["url"], {
        parent: this,
      }).url;
    }
    this.urls = urlsOf(urls);
    this.registerOutputs({ urls: this.urls });
  }
}

/** A child of a kind this plugin serves: the folder reads its URL, or its URLs. */
class NativeResource extends CustomResource {
  declare readonly url: Output<string>;
  declare readonly urls: Output<Record<string, string>>;

  constructor(kind: string, name: string, args: Inputs, read: string[], opts: CustomResourceOptions) {
    super(typeToken(kind), name, { ...args, ...Object.fromEntries(read.map((output) => [output, undefined])) }, opts);
  }
}
