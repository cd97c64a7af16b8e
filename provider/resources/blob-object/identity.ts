import { DEFAULT_BLOB_URL } from "../../config";
import { refuseOtherAccount } from "../../lifecycle/gone";
import { providerConfig } from "../../runtime";

/**
 * An id is <account_id>/[<prefix>/]<name>_<random>-<hash>[-ex<days>].<ext>; only name and prefix are
 * read, since the hash is undocumented and the suffix optional.
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
 * Ids and API keys both start with the account id, so another account's object, missing from this
 * key's listings though it exists, is refused before any request.
 */
export function refuseIfOtherAccount(operation: string, id: string): void {
  refuseOtherAccount(operation, id.split("/")[0], /^(\d+)-/.exec(providerConfig().apiKey)?.[1]);
}
