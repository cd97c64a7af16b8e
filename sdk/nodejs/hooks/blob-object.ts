import { existsSync, statSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { userError } from "../../../provider/user-error";

/** What a BlobObject takes as its content. */
type Source = pulumi.Input<pulumi.asset.FileAsset | pulumi.asset.StringAsset>;

/** A BlobObject's inputs: its args, with a source the engine would stumble on refused first. */
export function prepare<A extends { source: Source }>(
  name: string,
  args: A,
  _opts?: pulumi.CustomResourceOptions,
): object {
  return { ...args, source: refusedEarly(name, args.source) };
}

/**
 * The engine hashes every asset at registration, before the provider's check: a missing file fails
 * there slowly, with an engine message, and a RemoteAsset is downloaded first. Refused here instead.
 */
function refusedEarly(name: string, source: Source): Source {
  const refuse = (reason: string) => userError(`BlobObject "${name}": source ${reason}`);
  if (source instanceof pulumi.asset.RemoteAsset) {
    return source.uri.then((uri) => {
      throw refuse(
        `must be a pulumi.asset.FileAsset or pulumi.asset.StringAsset: a RemoteAsset is not uploaded, got a RemoteAsset of ${JSON.stringify(uri)}`,
      );
    });
  }
  if (!(source instanceof pulumi.asset.FileAsset)) return source;
  return source.path.then((file) => {
    if (!existsSync(file))
      throw refuse(
        `must name an existing file (relative to the project directory ${process.cwd()}), got ${JSON.stringify(file)}`,
      );
    if (!statSync(file).isFile()) throw refuse(`must name a file, not a directory, got ${JSON.stringify(file)}`);
    return portable(name, source, file);
  });
}

/**
 * State keeps a FileAsset's path as given, and an absolute one ties it to this checkout: a file in the
 * project goes by its relative path. The hash is the same, so an existing resource sees no change.
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

/** Only a first segment of exactly ".." leaves `dir` ("..notes.txt" is inside); another Windows drive is absolute. */
export function pathInside(dir: string, file: string): string | undefined {
  const relative = path.relative(dir, file);
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? undefined : relative;
}
