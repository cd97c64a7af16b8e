import { ApiError, Found } from "../../client";
import { warn } from "../../channels";
import { oneAtATime } from "../../lifecycle/one-at-a-time";
import { apiClient } from "../../runtime";
import type { SnapshotEntry } from "../../client/payloads/platform";
import { quotaExhausted } from "./quota";
import { LOOK_AGAIN_MS, lookAgain } from "../../lifecycle/look-again";
import { ranAt } from "../../lifecycle/operation";

export interface TakenSnapshot {
  url?: string;
  key: string;
  takenAt: string;
}

/**
 * A lost answer is settled by the listing against the newest snapshot noted before (a snapshot
 * counts against the daily quota); one at a time per application, so no sibling's is mistaken for it.
 */
export function takeSnapshot(appId: string): Promise<TakenSnapshot> {
  return oneAtATime(`app-snapshot:${appId}`, async () => {
    const client = apiClient();
    const before = newestOf(await client.listSnapshots("applications"), appId);
    try {
      const taken = await client.createAppSnapshot(appId, { read: (lost) => newSince(appId, before, lost) });
      if (taken instanceof Found) return taken.value;
      return { url: taken.url, key: taken.key, takenAt: ranAt() };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === "DAILY_SNAPSHOTS_LIMIT_REACHED") throw await quotaExhausted(appId, err);
      if (err.status === PROCESSING_STATUS) return await whenGenerated(appId, before, err);
      if (err.nothingShown) throw unknownOutcome(appId, err);
      throw err;
    }
  });
}

/**
 * 202 (`SNAPSHOT_PROCESSING`): the service took the request and is still generating the snapshot,
 * which its listing shows once done, usually within 2 minutes (the official Python SDK's account).
 * Asking again would take another one against the daily quota, so the listing is read instead,
 * every 10 s for at most 3 minutes.
 */
const PROCESSING_STATUS = 202;
export const PROCESSING_LOOKS_MS: readonly number[] = Array.from({ length: 18 }, () => 10_000);

async function whenGenerated(
  appId: string,
  before: SnapshotEntry | undefined,
  cause: ApiError,
): Promise<TakenSnapshot> {
  const generated = await listedSince(appId, before, PROCESSING_LOOKS_MS);
  const waited = `${PROCESSING_LOOKS_MS.reduce((sum, wait) => sum + wait, 0) / 1000} s`;
  if (generated === undefined)
    throw new Error(
      `snapshot of application "${appId}": the service is still generating it (HTTP 202, ${cause.code}) and did not ` +
        `list it within ${waited}. It was not requested again, because each request counts against the daily quota; ` +
        `it shows in the snapshot listing (getSnapshots) once done. Running pulumi up again requests another snapshot.`,
    );
  warn(
    `snapshot of application "${appId}" was still being generated when the service answered (HTTP 202, ${cause.code}): ` +
      `it is recorded from the snapshot listing, where it appeared at ${generated.modified}, with the listing's ` +
      `download key and no download URL`,
  );
  return { key: generated.key, takenAt: generated.modified };
}

/** The newest snapshot of the app the listing shows that is newer than `before`, looking again after each wait. */
async function listedSince(
  appId: string,
  before: SnapshotEntry | undefined,
  waitsMs: readonly number[],
): Promise<SnapshotEntry | undefined> {
  const [newest] = await lookAgain(waitsMs, async () => {
    const listed = newestOf(await apiClient().listSnapshots("applications"), appId);
    const isNew =
      listed !== undefined && (before === undefined || Date.parse(listed.modified) > Date.parse(before.modified));
    return isNew ? [listed] : [];
  });
  return newest;
}

/** The snapshot a lost request took, when the listing shows one newer than `before`. */
async function newSince(
  appId: string,
  before: SnapshotEntry | undefined,
  cause: ApiError,
): Promise<TakenSnapshot | undefined> {
  const newest = await listedSince(appId, before, LOOK_AGAIN_MS.appSnapshot);
  if (newest === undefined) return undefined;
  warn(
    `snapshot of application "${appId}" was taken at ${newest.modified}, but its response was lost (${cause.code}): ` +
      `it is recorded from the snapshot listing, with the listing's download key and no download URL; ` +
      `it is not taken twice (each snapshot counts against the daily quota)`,
  );
  return { key: newest.key, takenAt: newest.modified };
}

function unknownOutcome(appId: string, cause: ApiError): Error {
  return new Error(
    `snapshot of application "${appId}": there was no usable response (${cause.code}) and no new snapshot is listed, ` +
      `so it may or may not have been taken. It is not sent again on its own after such an answer, because each ` +
      `snapshot counts against the daily quota; run pulumi up again to take one.`,
  );
}

/** The listing is most recent first, but the order is not relied on. */
function newestOf(entries: SnapshotEntry[], appId: string): SnapshotEntry | undefined {
  return entries
    .filter((entry) => entry.name === appId)
    .reduce<SnapshotEntry | undefined>(
      (newest, entry) =>
        newest === undefined || Date.parse(entry.modified) > Date.parse(newest.modified) ? entry : newest,
      undefined,
    );
}
