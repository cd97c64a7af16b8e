import { existsSync, statSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { BlobObjectInputs } from "../provider/schemas/blob-object";
import { InputsOf } from "./inputs";
import { ProviderStub } from "./stub";
import { userError } from "./user-error";

const provider = new ProviderStub("blobObject");

export type BlobObjectArgs = Omit<InputsOf<BlobObjectInputs>, "source"> & {
  /** The content. A FileAsset's path is relative to the project directory. */
  source: pulumi.Input<pulumi.asset.FileAsset | pulumi.asset.StringAsset>;
};

/**
 * A file on the blob storage's CDN, uploaded from a FileAsset or a StringAsset.
 *
 * The API cannot change an object: a new content (compared by hash) or any other input replaces
 * it, the new object first, then the old one is deleted, so dependents get the new `url` in the
 * same update and the old URL works until then. The MIME type is inferred from the file's
 * extension unless given (text/plain for a StringAsset). `adoptId` takes over an existing object
 * instead of uploading.
 */
export class BlobObject extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly prefix: pulumi.Output<string | undefined>;
  declare readonly mimeType: pulumi.Output<string>;
  declare readonly expireDays: pulumi.Output<number | undefined>;
  declare readonly securityHash: pulumi.Output<boolean | undefined>;
  declare readonly autoDownload: pulumi.Output<boolean | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The public CDN URL. */
  declare readonly url: pulumi.Output<string>;
  /** Bytes. */
  declare readonly size: pulumi.Output<number>;
  /** ISO 8601, on the server's clock. */
  declare readonly createdAt: pulumi.Output<string>;
  /** ISO 8601, when expireDays is set. */
  declare readonly expiresAt: pulumi.Output<string | undefined>;
  /** Hex sha256 of the uploaded bytes. */
  declare readonly sha256: pulumi.Output<string>;

  constructor(name: string, args: BlobObjectArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs the provider computes are listed unset, so the engine exposes them on the resource.
    // Optional inputs too: an output exists only for keys present here.
    const optional = { prefix: undefined, expireDays: undefined, securityHash: undefined, autoDownload: undefined, adoptId: undefined };
    const outputs = { url: undefined, size: undefined, createdAt: undefined, expiresAt: undefined, sha256: undefined, ...optional };
    const source = refusedEarly(name, args.source);
    super(provider, name, { mimeType: undefined, ...outputs, ...args, source }, opts, "squarecloud", "BlobObject");
  }
}

/**
 * Sources the engine itself would stumble on before the provider's check runs: it hashes every
 * asset when the resource is registered, so a missing file or a directory fails there (slowly,
 * with an engine message), and a RemoteAsset is downloaded first. Both are refused here, when the program runs.
 */
function refusedEarly(name: string, source: BlobObjectArgs["source"]): BlobObjectArgs["source"] {
  const refuse = (reason: string) => userError(`BlobObject "${name}": source ${reason}`);
  if (source instanceof pulumi.asset.RemoteAsset) {
    return source.uri.then((uri) => {
      throw refuse(`must be a pulumi.asset.FileAsset or pulumi.asset.StringAsset: a RemoteAsset is not uploaded, got a RemoteAsset of ${JSON.stringify(uri)}`);
    });
  }
  if (!(source instanceof pulumi.asset.FileAsset)) return source;
  return source.path.then((file) => {
    if (!existsSync(file)) throw refuse(`must name an existing file (relative to the project directory ${process.cwd()}), got ${JSON.stringify(file)}`);
    if (!statSync(file).isFile()) throw refuse(`must name a file, not a directory, got ${JSON.stringify(file)}`);
    return portable(name, source, file);
  });
}

/**
 * The engine stores a FileAsset's path in state as given. An absolute path ties the state to this
 * checkout and machine (a stack moved to another checkout would look for the file there and
 * record the path of a user's home), so a file inside the project is handed over by its path
 * relative to the project directory, where the provider reads it. The content's hash is the
 * same, so switching an existing resource to the relative path changes nothing.
 */
function portable(name: string, source: pulumi.asset.FileAsset, file: string): pulumi.asset.FileAsset {
  if (!path.isAbsolute(file)) return source;
  const relative = pathInside(process.cwd(), file);
  if (relative === undefined) {
    pulumi.log.warn(
      `BlobObject "${name}": source ${JSON.stringify(file)} is outside the project directory, so its absolute path goes into ` +
        `the state, which then works in this checkout only; keep the file inside the project and give its relative path`,
    );
    return source;
  }
  return new pulumi.asset.FileAsset(relative.split(path.sep).join("/"));
}

/**
 * `file` relative to `dir` when it lies inside it, undefined otherwise. Only a first segment of
 * exactly ".." leaves `dir`: a file named "..notes.txt" is inside. On Windows another drive
 * gives an absolute relative path.
 */
export function pathInside(dir: string, file: string): string | undefined {
  const relative = path.relative(dir, file);
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? undefined : relative;
}
