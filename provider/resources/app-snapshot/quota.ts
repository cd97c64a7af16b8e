import type { ApiError } from "../../client";
import { apiClient, providerClock } from "../../runtime";
import type { SnapshotEntry } from "../../client/payloads/platform";

/** DAILY_SNAPSHOTS_LIMIT_REACHED says neither the quota nor when it frees: both come from the plan and listing. */

export const QUOTA_WINDOW_MS = 24 * 60 * 60_000;

/** (RAM / 256) * 2 application snapshots per 24 hours, RAM being the plan's memory in MB. */
export function dailySnapshotQuota(planMemoryMb: number): number {
  return Math.floor(planMemoryMb / 256) * 2;
}

/**
 * 24 hours after the oldest snapshot in the window; not `exact` when the listing shows fewer than
 * the quota, and then a "by then at the latest".
 */
export function nextSnapshotAllowed(
  entries: SnapshotEntry[],
  quota: number,
  now: number,
): { at: Date; exact: boolean } | undefined {
  const inWindow = entries
    .map((entry) => Date.parse(entry.modified))
    .filter((taken) => !Number.isNaN(taken) && taken > now - QUOTA_WINDOW_MS)
    .sort((a, b) => a - b);
  if (inWindow.length === 0) return undefined;
  const counted = inWindow.slice(-quota);
  return { at: new Date(counted[0] + QUOTA_WINDOW_MS), exact: inWindow.length >= quota };
}

/** The error to show for a refusal over the daily quota. Nothing was taken. */
export async function quotaExhausted(appId: string, cause: ApiError): Promise<Error> {
  const client = apiClient();
  let quota: string;
  let when: string;
  try {
    const { user } = await client.me();
    const limit = dailySnapshotQuota(user.plan.memory.limit);
    quota = `the account's quota of ${limit} application snapshots per 24 hours (plan ${user.plan.name}: ${user.plan.memory.limit} MB / 256 * 2)`;
    const next = nextSnapshotAllowed(await client.listSnapshots("applications"), limit, providerClock().now());
    when =
      next === undefined
        ? "the next one is allowed within 24 hours of the oldest snapshot of the last 24 hours"
        : `the next one is allowed ${next.exact ? "at" : "by"} ${next.at.toISOString()}${next.exact ? "" : " at the latest"} (24 hours after the oldest snapshot of the last 24 hours)`;
  } catch (err) {
    quota = "the account's quota of (plan RAM / 256) * 2 application snapshots per 24 hours";
    when = `the next one is allowed within 24 hours of the oldest snapshot of the last 24 hours (the account could not be read for the exact figures: ${(err as Error).message})`;
  }
  return new Error(
    `snapshot of application "${appId}" refused (${cause.code}): ${quota} is used up, so no snapshot was taken; ` +
      `${when}. Run pulumi up again after that.`,
  );
}
