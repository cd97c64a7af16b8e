import { typeToken } from "../tokens";
import type { Inputs, Output } from "@pulumi/pulumi/output";
import {
  ComponentResource,
  type ComponentResourceOptions,
  CustomResource,
  type CustomResourceOptions,
} from "@pulumi/pulumi/resource";
import { declareFolder } from "../components/blob-folder";
import { blobFolder, blobFolderSync, blobObject } from "../kinds";
import type { ComponentResult } from "./construct";

/**
 * The BlobFolder component in programs of other languages than TypeScript: declared by the same
 * code as the TypeScript SDK's class (components/blob-folder.ts), its children the native
 * `squarecloud:index:BlobObject` and `BlobFolderSync` this plugin serves.
 */
export function constructBlobFolder(name: string, inputs: Inputs, opts: ComponentResourceOptions): ComponentResult {
  const folder = new NativeBlobFolder(name, inputs, opts);
  return { urn: folder.urn, state: { urls: folder.urls } };
}

class NativeBlobFolder extends ComponentResource {
  readonly urls: Output<Record<string, string>>;

  constructor(name: string, inputs: Inputs, opts: ComponentResourceOptions) {
    super(typeToken(blobFolder.name), name, {}, opts);
    this.urls = declareFolder(name, inputs, {
      object: (resourceName, args) =>
        new NativeResource(blobObject.name, resourceName, args, ["url"], { parent: this }),
      synced: (args) => new NativeResource(blobFolderSync.name, name, args, ["urls"], { parent: this }),
    }).urls;
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
