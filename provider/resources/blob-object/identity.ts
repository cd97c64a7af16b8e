import { DEFAULT_BLOB_URL } from "../../config";
import { refuseOtherAccount } from "../../lifecycle/gone";
import { providerConfig } from "../../runtime";

/**
 * What an object id tells: <account_id>/[<prefix>/]<name>_<random>-<hash>[-ex<days>].<ext>
 * (real-api-notes.md), and where the object is served. Only the name and prefix are read: the
 * <random>-<hash> part marks where the name ends, but what it hashes is not documented, and the
 * -ex<days> suffix is optional (a server may leave it out), so neither stands for anything.
 */

export interface ObjectIdParts {
  prefix?: string;
  name: string;
}

const ID_PATTERN = /^\d+\/(?:([a-zA-Z0-9_]{3,32})\/)?([a-zA-Z0-9_]{3,32})_[a-z0-9]+-[0-9a-f]+(?:-ex\d+)?\.[a-z0-9]+$/;

export function parseObjectId(id: string): ObjectIdParts | undefined {
  const match = ID_PATTERN.exec(id);
  if (!match) return undefined;
  const [, prefix, name] = match;
  return { prefix, name };
}

/** The live CDN; objects of any other blob API (the emulator) are served under <blob URL>/public/. */
const LIVE_CDN = "https://public-blob.squarecloud.dev";

/** The public URL of an object whose upload answer we do not have (an adopted one). */
export function publicUrlOf(id: string): string {
  const { blobUrl } = providerConfig();
  return blobUrl === DEFAULT_BLOB_URL ? `${LIVE_CDN}/${id}` : `${blobUrl}/public/${id}`;
}

/**
 * An object id and an API key both start with their account id (real-api-notes.md), so another
 * account's object is refused before any request, without asking who the key is: with this key
 * it is missing from listings although it exists. Keys of another shape cannot be checked.
 * `operation` begins the message, e.g. `delete object "logo" (<id>)`.
 */
export function refuseIfOtherAccount(operation: string, id: string): void {
  refuseOtherAccount(operation, id.split("/")[0], /^(\d+)-/.exec(providerConfig().apiKey)?.[1]);
}
