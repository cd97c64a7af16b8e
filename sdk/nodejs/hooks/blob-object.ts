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
 * Sources the engine itself would stumble on before the provider's check runs: it hashes every
 * asset when the resource is registered, so a missing file or a directory fails there (slowly,
 * with an engine message), and a RemoteAsset is downloaded first. Both are refused here, when the program runs.
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
