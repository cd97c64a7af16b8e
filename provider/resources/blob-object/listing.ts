import { apiClient, providerClock } from "../../runtime";
import type { BlobObject } from "../../client/payloads/blob";
import { OBJECT_NAME_PATTERN } from "../../kinds/blob-object";
import { noteServerTime } from "./server-clock";

/**
 * Shared in the process, so a refresh's requests grow with prefixes, not objects; reused briefly,
 * since the server caches its own longer anyway (LIST_CACHE_MS).
 */

export interface Listing {
  objects: Map<string, BlobObject>;
  /** The server's clock when it answered (its Date header), or the local clock if it sent none. */
  serverNow: number;
}

const REUSE_MS = 10_000;

const shared = new Map<string, { at: number; listing: Promise<Listing> }>();

/**
 * `prefix` undefined lists every object: objects without a prefix have no narrower shared filter.
 * So does a prefix the listing's filter refuses (the name rule, kinds/names.ts): an object the
 * service holds under a name its own rules would refuse at upload is still read.
 */
export function sharedListing(prefix: string | undefined): Promise<Listing> {
  const filter = prefix !== undefined && OBJECT_NAME_PATTERN.test(prefix) ? prefix : undefined;
  const key = filter ?? "";
  const now = providerClock().now();
  const entry = shared.get(key);
  if (entry && now - entry.at < REUSE_MS) return entry.listing;
  const listing = freshListing(filter);
  shared.set(key, { at: now, listing });
  // A failed listing is not reused: the next read asks again.
  listing.catch(() => {
    if (shared.get(key)?.listing === listing) shared.delete(key);
  });
  return listing;
}

/** A listing of its own (after a lost upload, or to adopt), not shared and not reused. */
export async function freshListing(prefix: string | undefined): Promise<Listing> {
  let serverNow: number | undefined;
  const objects = await apiClient().listAllObjects(prefix, (epochMs) => {
    serverNow = epochMs;
    noteServerTime(epochMs);
  });
  return { objects: new Map(objects.map((o) => [o.id, o])), serverNow: serverNow ?? providerClock().now() };
}
