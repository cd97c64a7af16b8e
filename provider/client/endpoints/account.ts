import type { HttpClient } from "../http";
import type { AccountLimits } from "../pacing";
import type { Settle, Settled } from "../retry";
import * as platform from "../payloads/platform";
import { read, readById } from "./reads";

/** The account and its applications: /v2/users and /v2/apps of the platform API. */
export function accountEndpoints(api: HttpClient, limits: AccountLimits) {
  return {
    me: read(api, "read account", "/v2/users/me", platform.Account),

    getApp: readById(api, "get application", "/v2/apps/{appId}", platform.App),

    /**
     * Paced to one request per 10 s per application and range, the server's uncached rate.
     * `bounds` narrow the range to the points from `start` to `end` (ISO 8601), as the current
     * official clients send them; neither is in the API reference, which has `range` alone.
     */
    appAnalytics(
      appId: string,
      range: platform.AnalyticsRange = "daily",
      bounds: { start?: string; end?: string } = {},
    ): Promise<platform.Analytics> {
      return api.request({
        operation: "read application analytics",
        resource: appId,
        method: "GET",
        path: "/v2/apps/{appId}/network/analytics",
        params: { appId },
        query: { range, start: bounds.start, end: bounds.end },
        schema: platform.Analytics,
        gate: limits.analytics(appId, range),
      });
    },

    /** Up to the last 10 deployments of the past 24 hours, each a list of events, earliest first. */
    appDeployments: readById(api, "list application deployments", "/v2/apps/{appId}/deployments", platform.Deployments),

    /** The result's pre-signed URL is a secret. Each snapshot counts against a daily quota: see `settle`. */
    createAppSnapshot<F = never>(appId: string, settle?: Settle<F>): Promise<Settled<platform.AppSnapshot, F>> {
      return api.request(
        {
          operation: "create application snapshot",
          resource: appId,
          method: "POST",
          path: "/v2/apps/{appId}/snapshots",
          params: { appId },
          schema: platform.AppSnapshot,
          gate: limits.appSnapshot(),
        },
        settle,
      );
    },

    /**
     * Paths relative to the application root. Retried like any PATCH: after a lost attempt moved the
     * file, the retry gets FILE_NOT_FOUND (afterLostAttempt), so nothing moves twice.
     */
    moveAppFile(appId: string, move: { path: string; to: string }): Promise<void> {
      return api.request({
        operation: "move application file",
        resource: appId,
        method: "PATCH",
        path: "/v2/apps/{appId}/files",
        params: { appId },
        json: { path: move.path, to: move.to },
      });
    },

    /** The account's snapshots of one scope, most recent first. Each entry's `key` is a pre-signed credential. */
    listSnapshots(scope: platform.SnapshotScope = "applications"): Promise<platform.SnapshotEntry[]> {
      return api.request({
        operation: `list ${scope === "databases" ? "database" : "application"} snapshots`,
        method: "GET",
        path: "/v2/users/snapshots",
        query: { scope },
        schema: platform.SnapshotList,
      });
    },
  };
}
