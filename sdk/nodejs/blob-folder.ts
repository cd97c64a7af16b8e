import * as pulumi from "@pulumi/pulumi";
import { blobFolder } from "../../provider/kinds/blob-folder";
import { blobFolderSync } from "../../provider/kinds/blob-folder-sync";
import { STATUS_URN_INPUT } from "../../provider/resources/blob-folder-sync/progress";
import { typeToken } from "../../provider/tokens";
import { BlobFolderSync } from "./blob-folder-sync";
import { BlobObject, type BlobObjectArgs } from "./blob-object";
import { dynamicType } from "./registration";
import { folderObjects, urlsOf } from "../../provider/components/blob-folder-files";

export type BlobFolderArgs = Pick<BlobObjectArgs, "prefix" | "expireDays" | "securityHash" | "autoDownload"> & {
  /** A directory relative to the project directory; every file below it becomes one object. */
  directory: string;
  /**
   * `false`: one BlobFolderSync resource holds every file (synced mode), instead of one BlobObject
   * per file (the default, `true`). Known when the program runs.
   */
  managedObjects?: boolean;
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
 *
 * With `managedObjects: false` (synced mode) the folder holds one BlobFolderSync resource instead,
 * whose state maps each path to its content hash and object: an update uploads only the new and
 * changed files and deletes what left, so a folder of thousands of files is one resource.
 */
export class BlobFolder extends pulumi.ComponentResource {
  /** Relative path ("/"-separated) to the object's public URL. */
  readonly urls: pulumi.Output<Record<string, string>>;
  /** Relative path to its BlobObject; empty in synced mode. */
  readonly objects: Record<string, BlobObject>;
  /** In synced mode (`managedObjects: false`), the one resource that holds every file. */
  readonly files?: BlobFolderSync;

  constructor(name: string, args: BlobFolderArgs, opts?: pulumi.ComponentResourceOptions) {
    super(typeToken(blobFolder.name), name, {}, opts);
    const { directory, managedObjects, ...options } = args;
    this.objects = {};
    if (managedObjects === false) {
      // The provider's check reads the directory, so a directory known only later is fine here.
      // A missing prefix is the check's to refuse, at preview, with the field named.
      const synced = {
        directory,
        ...options,
        prefix: options.prefix as pulumi.Input<string>,
        // Where the provider shows its upload progress: the dynamic provider is not told the resource.
        [STATUS_URN_INPUT]: pulumi.createUrn(name, dynamicType(blobFolderSync.name), this),
      };
      this.files = new BlobFolderSync(name, synced, { parent: this });
      this.urls = this.files.urls;
      this.registerOutputs({ urls: this.urls });
      return;
    }
    for (const object of folderObjects(name, directory, options)) {
      this.objects[object.relativePath] = new BlobObject(object.resourceName, object.args, { parent: this });
    }
    this.urls = urlsOf(
      Object.fromEntries(Object.entries(this.objects).map(([relativePath, object]) => [relativePath, object.url])),
    );
    this.registerOutputs({ urls: this.urls });
  }
}
