import { ApiError, Found } from "../../client";
import type { UploadObjectInput } from "../../client";
import { warn } from "../../channels";
import { LOST_UPLOAD_LOOK_EVERY_MS } from "../../lifecycle/look-again";
import { oneAtATime } from "../../lifecycle/one-at-a-time";
import { apiClient, providerClock } from "../../runtime";
import type { BlobObject, UploadedObject } from "../../client/payloads/blob";
import { freshListing } from "./listing";
import { parseObjectId } from "./identity";
import { holdingsOf } from "../../lifecycle/holdings";
import { blobObject, LIST_CACHE_MS } from "../../kinds/blob-object";
import { noteServerTime, serverNow as serverClock } from "./server-clock";

// A lost upload waits the list cache out on the server's clock, then looks (docs/reliability.md, "A lost upload").

/** Beyond the server's list cache, for clock rounding. */
const CACHE_MARGIN_MS = 2_000;
/** Our estimate of the server's clock may run late: whole-second Date headers, carried forward. */
const CLOCK_SKEW_MS = 5_000;
/** On the provider's clock: a server whose Date header stands still would be waited on forever. */
const LOST_UPLOAD_WAIT_MS = 2 * LIST_CACHE_MS;
const DAY_MS = 86_400_000;

export type UploadRequest = Omit<UploadObjectInput, "serverTime">;

export interface StoredObject {
  id: string;
  url: string;
  size: number;
  /** Epoch ms on the server's clock. */
  createdAt: number;
  expiresAt?: number;
}

export function uploadReconciled(request: UploadRequest, publicUrl: (id: string) => string): Promise<StoredObject> {
  // One at a time per name, so a reconciliation never takes a sibling's object for its own.
  return oneAtATime(`${request.prefix ?? ""}/${request.name}`, () => upload(request, publicUrl));
}

/**
 * A listing read past the server's cache sees every upload it took, so when it shows nothing the
 * upload is sent again, within the client's attempts and deadline.
 */
async function upload(request: UploadRequest, publicUrl: (id: string) => string): Promise<StoredObject> {
  let serverNow: number | undefined;
  // An identical object stored earlier (another stack's) is not a lost upload's.
  const startedAt = serverClock() - CLOCK_SKEW_MS;
  let uploaded: UploadedObject | Found<{ object: BlobObject; cause: ApiError }>;
  try {
    uploaded = await apiClient().uploadObject(
      {
        ...request,
        serverTime: (epochMs) => {
          serverNow = epochMs;
          noteServerTime(epochMs);
        },
      },
      {
        conclusive: true,
        read: async (cause) => {
          const object = await findLostUpload(request, cause, startedAt);
          return object && { object, cause };
        },
      },
    );
  } catch (err) {
    if (!(err instanceof ApiError) || !err.nothingShown) throw err;
    throw new Error(
      `upload of object "${request.name}" got no usable answer and nothing was stored, until the retry budget ran out: ${err.message}`,
    );
  }
  if (uploaded instanceof Found) return keepLostUpload(request, uploaded.value.object, uploaded.value.cause, publicUrl);
  holdingsOf(blobObject).noteCreated(uploaded.id);
  const createdAt = serverNow ?? providerClock().now();
  return {
    id: uploaded.id,
    url: uploaded.url,
    size: uploaded.size,
    createdAt,
    expiresAt: expiryOf(createdAt, request.expireDays),
  };
}

function keepLostUpload(
  request: UploadRequest,
  found: BlobObject,
  cause: ApiError,
  publicUrl: (id: string) => string,
): StoredObject {
  holdingsOf(blobObject).noteCreated(found.id);
  warn(
    `upload of object "${request.name}" got no usable answer (${cause.code}); it was stored as ${found.id}, which is kept (not uploaded twice)`,
  );
  return {
    id: found.id,
    url: publicUrl(found.id),
    size: found.size,
    createdAt: Date.parse(found.created_at),
    expiresAt: found.expires_at === undefined ? undefined : Date.parse(found.expires_at),
  };
}

/** Lists until a listing answered after the lost upload is past the server's cache window. */
async function findLostUpload(
  request: UploadRequest,
  cause: ApiError,
  startedAt: number,
): Promise<BlobObject | undefined> {
  const clock = providerClock();
  const giveUpAt = clock.now() + LOST_UPLOAD_WAIT_MS;
  let freshAfter: number | undefined;
  for (;;) {
    const listing = await listAfter(request, cause);
    freshAfter ??= listing.serverNow + LIST_CACHE_MS + CACHE_MARGIN_MS;
    const candidates = lostUploadCandidates([...listing.objects.values()], request, startedAt);
    if (candidates.length === 1) return candidates[0];
    if (candidates.length > 1) {
      throw new Error(
        `upload of object "${request.name}" got no usable answer (${cause.code}) and ${candidates.length} matching objects ` +
          `appeared (${candidates.map((o) => o.id).join(", ")}); set adoptId to the right one and delete the others`,
      );
    }
    if (listing.serverNow >= freshAfter) return undefined;
    if (clock.now() >= giveUpAt) {
      throw new Error(
        `upload of object "${request.name}" got no usable answer (${cause.code}), and the server's clock (its Date header) ` +
          `did not move past its ${LIST_CACHE_MS / 1000} s list cache within ${LOST_UPLOAD_WAIT_MS / 1000} s, so it is unknown ` +
          `whether the object was stored. An object may exist: list the account's objects; if a new one named ` +
          `"${request.name}" is there, set adoptId to its id and run pulumi up again, otherwise run pulumi up again.`,
      );
    }
    await clock.sleep(Math.min(LOST_UPLOAD_LOOK_EVERY_MS, freshAfter - listing.serverNow, giveUpAt - clock.now()));
  }
}

async function listAfter(request: UploadRequest, cause: ApiError) {
  try {
    // The name narrows the listing when there is no prefix: a listing's filter matches the start of the id.
    return await freshListing(request.prefix ?? request.name);
  } catch (err) {
    throw new Error(
      `upload of object "${request.name}" got no usable answer (${cause.code}) and the objects could not be listed to ` +
        `find out whether it was stored (${(err as Error).message}). If a new object of that name is listed later, ` +
        `set adoptId to its id before running pulumi up again, so that it is not stored twice.`,
    );
  }
}

/** Told only by what the API documents; several matches are the caller's to refuse (docs/reliability.md). */
export function lostUploadCandidates(objects: BlobObject[], request: UploadRequest, startedAt: number): BlobObject[] {
  return objects.filter((object) => {
    const parts = parseObjectId(object.id);
    if (!parts || parts.name !== request.name || parts.prefix !== request.prefix) return false;
    if (object.size !== request.content.length || !expiresAsRequested(object, request.expireDays)) return false;
    return Date.parse(object.created_at) >= startedAt && !holdingsOf(blobObject).isHeld(object.id);
  });
}

/** Days are whole, so the nearest whole number of days from created_at to expires_at is the D asked for. */
function expiresAsRequested(object: BlobObject, expireDays: number | undefined): boolean {
  if (object.expires_at === undefined) return expireDays === undefined;
  if (expireDays === undefined) return false;
  return Math.round((Date.parse(object.expires_at) - Date.parse(object.created_at)) / DAY_MS) === expireDays;
}

function expiryOf(createdAt: number, expireDays: number | undefined): number | undefined {
  return expireDays === undefined ? undefined : createdAt + expireDays * DAY_MS;
}
