import { statSync } from "node:fs";
import { objectNameFor } from "../../components/blob-folder-files";
import type { BlobFolderSyncOutputs } from "../../kinds/blob-folder-sync";
import { objectName } from "../../kinds/blob-object";
import { parseObjectId, publicUrlOf } from "../blob-object/identity";
import { freshListing } from "../blob-object/listing";
import { fileOf, readManifest } from "./manifest";

/**
 * `pulumi import` of a synced folder, by the id `<prefix>/<directory>`: the directory's files are
 * read as the check reads them, and each takes over the one object under the prefix of its name
 * and size, as BlobObject's adoptId does. A file without one (or with several) is left out of the
 * state: the next update uploads it.
 */

const DAY_MS = 86_400_000;

export async function importedSet(id: string): Promise<{ id: string; props: BlobFolderSyncOutputs }> {
  const slash = id.indexOf("/");
  const prefix = id.slice(0, slash);
  const directory = id.slice(slash + 1);
  if (slash < 0 || !objectName.safeParse(prefix).success || directory === "")
    throw new Error(`import of folder ${JSON.stringify(id)}: the id must be <prefix>/<directory>, e.g. site/public`);
  const { manifest, failures } = readManifest(directory);
  if (!manifest) throw new Error(`import of folder ${JSON.stringify(id)}: ${failures[0].reason}`);

  const listing = await freshListing(prefix);
  const byName = new Map<string, { id: string; size: number; days?: number }[]>();
  for (const object of listing.objects.values()) {
    const parts = parseObjectId(object.id);
    if (parts?.prefix !== prefix) continue;
    const days =
      object.expires_at === undefined
        ? undefined
        : Math.round((Date.parse(object.expires_at) - Date.parse(object.created_at)) / DAY_MS);
    byName.set(parts.name, [...(byName.get(parts.name) ?? []), { id: object.id, size: object.size, days }]);
  }
  const files: Record<string, string> = {};
  const objects: Record<string, string> = {};
  const urls: Record<string, string> = {};
  const expiries = new Set<number | undefined>();
  for (const [file, sha256] of Object.entries(manifest)) {
    const size = statSync(fileOf(directory, file)).size;
    const matches = (byName.get(objectNameFor(file)) ?? []).filter((object) => object.size === size);
    if (matches.length !== 1) continue;
    files[file] = sha256;
    objects[file] = matches[0].id;
    urls[file] = publicUrlOf(matches[0].id);
    expiries.add(matches[0].days);
  }
  const expireDays = expiries.size === 1 ? [...expiries][0] : undefined;
  const props = {
    directory,
    prefix,
    ...(expireDays === undefined ? {} : { expireDays }),
    files,
    objects,
    urls,
    syncedAt: new Date(listing.serverNow).toISOString(),
  };
  return { id, props: props as BlobFolderSyncOutputs };
}
