import { ApiError } from "../../client";
import { warn } from "../../handler";
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
 * POST /v2/apps/{id}/snapshots. The client paces it (one per 5 s per account) and waits a
 * KEEP_CALM out. A snapshot counts against the daily quota, so a POST whose response was lost is
 * never sent again blindly: the application's newest listed snapshot, noted before the POST,
 * tells whether a new one appeared. Snapshots of one application are taken one at a time in this
 * process, so a sibling resource's snapshot is never mistaken for this one's.
 */
export function takeSnapshot(appId: string): Promise<TakenSnapshot> {
  return oneAtATime(`app-snapshot:${appId}`, async () => {
    const client = apiClient();
    const before = newestOf(await client.listSnapshots("applications"), appId);
    try {
      const { url, key } = await client.createAppSnapshot(appId);
      return { url, key, takenAt: ranAt() };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === "DAILY_SNAPSHOTS_LIMIT_REACHED") throw await quotaExhausted(appId, err);
      if (err.mayHaveCommitted) return reconcile(appId, before, err);
      throw err;
    }
  });
}

async function reconcile(appId: string, before: SnapshotEntry | undefined, cause: ApiError): Promise<TakenSnapshot> {
  const [newest] = await lookAgain(LOOK_AGAIN_MS.appSnapshot, async () => {
    const listed = newestOf(await apiClient().listSnapshots("applications"), appId);
    const isNew =
      listed !== undefined && (before === undefined || Date.parse(listed.modified) > Date.parse(before.modified));
    return isNew ? [listed] : [];
  });
  if (newest !== undefined) {
    warn(
      `snapshot of application "${appId}" was taken at ${newest.modified}, but its response was lost (${cause.code}): ` +
        `it is recorded from the snapshot listing, with the listing's download key and no download URL; ` +
        `it is not taken twice (each snapshot counts against the daily quota)`,
    );
    return { key: newest.key, takenAt: newest.modified };
  }
  throw new Error(
    `snapshot of application "${appId}": there was no usable response (${cause.code}) and no new snapshot is listed, ` +
      `so it may or may not have been taken. It is not sent again on its own, because each snapshot counts against ` +
      `the daily quota; run pulumi up again to take one.`,
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
