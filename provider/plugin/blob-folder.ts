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
import { blobFolder, blobObject } from "../kinds";
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
    const { directory, prefix, expireDays, securityHash, autoDownload } = inputs;
    // The files are listed when the folder is declared, at preview too: the path must be known then.
    // A secret or another resource's output arrives as an Output instead.
    if (typeof directory !== "string")
      throw userError(
        "BlobFolder: directory must be a plain path, known when the program runs (not a secret or another resource's output)",
      );
    const options: FolderOptions = { prefix, expireDays, securityHash, autoDownload };
    const urls: Record<string, Output<string>> = {};
    for (const object of folderObjects(name, directory, options)) {
      urls[object.relativePath] = new NativeBlobObject(object.resourceName, object.args, { parent: this }).url;
    }
    this.urls = urlsOf(urls);
    this.registerOutputs({ urls: this.urls });
  }
}

/** A folder's object, served by this plugin: the folder reads its URL. */
class NativeBlobObject extends CustomResource {
  declare readonly url: Output<string>;

  constructor(name: string, args: Inputs, opts: CustomResourceOptions) {
    super(typeToken(blobObject.name), name, { ...args, url: undefined }, opts);
  }
}
