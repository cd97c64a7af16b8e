import * as pulumi from "@pulumi/pulumi";
import { blobFolder } from "../../provider/kinds/blob-folder";
import { typeToken } from "../../provider/tokens";
import { BlobObject, type BlobObjectArgs } from "./blob-object";
import { folderObjects, urlsOf } from "../../provider/components/blob-folder-files";

export type BlobFolderArgs = Pick<BlobObjectArgs, "prefix" | "expireDays" | "securityHash" | "autoDownload"> & {
  /** A directory relative to the project directory; every file below it becomes one object. */
  directory: string;
};

/**
 * A directory published to the blob storage: one BlobObject per file below it, all with the
 * folder's options, each a child of the folder.
 *
 * Each object's name (and its resource's name, `<folder>-<object name>`) comes from the file's path
 * relative to the directory, sanitized to the characters the API allows; `urls` maps those relative
 * paths ("css/site.css") to the public URLs. Two paths that would make the same name, or a
 * directory that does not exist, are refused when the folder is declared, so at preview. Files are
 * read then too: add or remove one and the next update adds or removes its object; a changed file
 * replaces its object.
 */
export class BlobFolder extends pulumi.ComponentResource {
  /** Relative path ("/"-separated) to the object's public URL. */
  readonly urls: pulumi.Output<Record<string, string>>;
  /** Relative path to its BlobObject. */
  readonly objects: Record<string, BlobObject>;

  constructor(name: string, args: BlobFolderArgs, opts?: pulumi.ComponentResourceOptions) {
    super(typeToken(blobFolder.name), name, {}, opts);
    const { directory, ...options } = args;
    this.objects = {};
    for (const object of folderObjects(name, directory, options)) {
      this.objects[object.relativePath] = new BlobObject(object.resourceName, object.args, { parent: this });
    }
    this.urls = urlsOf(
      Object.fromEntries(Object.entries(this.objects).map(([relativePath, object]) => [relativePath, object.url])),
    );
    this.registerOutputs({ urls: this.urls });
  }
}
