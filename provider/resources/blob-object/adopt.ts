import { type BlobObjectInputs, LIST_CACHE_MS } from "../../kinds/blob-object";
import { parseObjectId, publicUrlOf, refuseIfOtherAccount } from "./identity";
import { freshListing } from "./listing";
import { readSource } from "./source";
import type { StoredObject } from "./upload";

/** The object adoptId names, and the source's content that stands for it. */
export interface Adopted {
  stored: StoredObject;
  content: Buffer;
}

/** What the id itself tells: another account's object, or another name or prefix, is refused. */
export function refuseAdoption(inputs: BlobObjectInputs, id: string): void {
  const what = `adopt object ${id}`;
  refuseIfOtherAccount(what, id);
  const parts = parseObjectId(id);
  if (!parts) throw new Error(`${what}: not an object id (<account>/[<prefix>/]<name>_<random>-<hash>.<ext>)`);
  if (parts.name !== inputs.name || parts.prefix !== inputs.prefix) {
    throw new Error(
      `${what}: its name and prefix are "${parts.name}" and "${parts.prefix ?? ""}", but the inputs say "${inputs.name}" and "${inputs.prefix ?? ""}"`,
    );
  }
}

/** Listed, and of the source's size, since the program's source then stands for it. */
export async function inspect(inputs: BlobObjectInputs, id: string): Promise<Adopted> {
  const what = `adopt object ${id}`;
  const parts = parseObjectId(id) as NonNullable<ReturnType<typeof parseObjectId>>;
  const content = readSource(inputs.source);
  const listed = (await freshListing(parts.prefix ?? parts.name)).objects.get(id);
  if (!listed) {
    throw new Error(
      `${what}: it is not listed in the account (listings are cached up to ${LIST_CACHE_MS / 1000} s, so an object uploaded just now shows up after that)`,
    );
  }
  if (listed.size !== content.length) {
    throw new Error(
      `${what}: it has ${listed.size} bytes but the source has ${content.length}; adopt only the object the source stands for`,
    );
  }
  const stored: StoredObject = {
    id,
    url: publicUrlOf(id),
    size: listed.size,
    createdAt: Date.parse(listed.created_at),
    expiresAt: listed.expires_at === undefined ? undefined : Date.parse(listed.expires_at),
  };
  return { stored, content };
}
