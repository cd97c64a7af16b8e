import * as pulumi from "@pulumi/pulumi";
import { declareFolder } from "../../provider/components/blob-folder";
import { blobFolder } from "../../provider/kinds/blob-folder";
import { blobFolderSync } from "../../provider/kinds/blob-folder-sync";
import { STATUS_URN_INPUT } from "../../provider/resources/blob-folder-sync/progress";
import { typeToken } from "../../provider/tokens";
import { BlobFolderSync } from "./blob-folder-sync";
import { BlobObject } from "./blob-object";
import { dynamicType } from "./registration";

// The Args interface and the class's doc comment are written by `npm run gen` from
// provider/kinds/blob-folder.ts; the children are declared by provider/components/blob-folder.ts,
// as in the plugin.

/** What a {@link BlobFolder} takes. */
export interface BlobFolderArgs {
  /** A directory relative to the project directory; every file below it becomes one object. */
  directory: string;
  /** Every object's prefix, 3 to 32 characters of a-z, A-Z, 0-9 and _: each id is `<account>/<prefix>/<name>_...`. */
  prefix?: pulumi.Input<string>;
  /** Days until the service deletes each object (1 to 365 days). */
  expireDays?: pulumi.Input<number>;
  /** A long random hash in each id instead of a short content hash, so the URLs cannot be guessed. */
  securityHash?: pulumi.Input<boolean>;
  /** The CDN makes browsers download the files instead of showing them. */
  autoDownload?: pulumi.Input<boolean>;
  /** `false`: one BlobFolderSync resource holds every file (synced mode), instead of one BlobObject per file (the default, `true`). Known when the program runs. */
  managedObjects?: boolean;
}

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
    const folder = declareFolder(
      name,
      { ...args },
      {
        object: (resourceName, objectArgs) => new BlobObject(resourceName, objectArgs, { parent: this }),
        synced: (options) => {
          const synced = {
            ...options,
            // A missing prefix is the check's to refuse, at preview, with the field named.
            prefix: options.prefix as pulumi.Input<string>,
            // Where the provider shows its upload progress: the dynamic provider is not told the resource.
            [STATUS_URN_INPUT]: pulumi.createUrn(name, dynamicType(blobFolderSync.name), this),
          };
          return new BlobFolderSync(name, synced, { parent: this });
        },
      },
    );
    this.urls = folder.urls;
    this.objects = folder.objects;
    this.files = folder.files;
    this.registerOutputs({ urls: this.urls });
  }
}
