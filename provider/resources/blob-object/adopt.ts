import type { BlobObjectInputs } from "../../kinds/blob-object";
import { parseObjectId, publicUrlOf, refuseIfOtherAccount } from "./identity";
import { freshListing } from "./listing";
import { objectHoldings } from "./registry";
import type { StoredObject } from "./upload";

/**
 * Takes over an existing object instead of uploading: it must be listed, and be what the inputs
 * describe (name, prefix, size of the source), since the program's source then stands for it.
 */
export async function adopt(inputs: BlobObjectInputs, content: Buffer): Promise<StoredObject> {
  const id = inputs.adoptId as string;
  const what = `adopt object ${id}`;
  refuseIfOtherAccount(what, id);
  const parts = parseObjectId(id);
  if (!parts) throw new Error(`${what}: not an object id (<account>/[<prefix>/]<name>_<random>-<hash>.<ext>)`);
  if (parts.name !== inputs.name || parts.prefix !== inputs.prefix) {
    throw new Error(`${what}: its name and prefix are "${parts.name}" and "${parts.prefix ?? ""}", but the inputs say "${inputs.name}" and "${inputs.prefix ?? ""}"`);
  }
  const listed = await objectHoldings.adopt(what, id, async () => {
    const found = (await freshListing(parts.prefix ?? parts.name)).objects.get(id);
    if (!found) {
      throw new Error(`${what}: it is not listed in the account (listings are cached up to 30 s, so an object uploaded just now shows up after that)`);
    }
    if (found.size !== content.length) {
      throw new Error(`${what}: it has ${found.size} bytes but the source has ${content.length}; adopt only the object the source stands for`);
    }
    return found;
  });
  return {
    id,
    url: publicUrlOf(id),
    size: listed.size,
    createdAt: Date.parse(listed.created_at),
    expiresAt: listed.expires_at === undefined ? undefined : Date.parse(listed.expires_at),
  };
}
