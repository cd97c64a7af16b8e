import { z } from "zod";
import { apiError } from "../errors";
import { success } from "../http/reply";
import type { Route } from "../http/router";
import { type ApiHandler, type PublicRoute, selfUrl } from "../http/server";
import { SNAPSHOT_DOWNLOAD_PATH } from "../models/rules";
import { parseBody } from "./validate";

const moveFileBody = z.object({ path: z.string(), to: z.string() });

/**
 * `start` or `end` (an ISO 8601 time) of the current official clients, which narrow the range: both
 * send them (the Python SDK in place of `range`); @squarecloud/api 5.0.0 sends the text "undefined"
 * for one not given, which counts as absent. Anything else that is not a time is INVALID_RANGE.
 */
function windowBound(query: URLSearchParams, name: "start" | "end"): number | undefined {
  const text = query.get(name);
  if (text === null || text === "" || text === "undefined") return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw apiError("INVALID_RANGE", `${name} must be an ISO 8601 time, got "${text}".`);
  return at;
}

export const appRoutes: Route<ApiHandler>[] = [
  {
    method: "GET",
    template: "/v2/apps/:id",
    handler: ({ account, params }, models) =>
      success(models.apps.detailView(models.apps.accessible(account, params.id, "read"))),
  },
  {
    method: "GET",
    template: "/v2/apps/:id/network/analytics",
    handler: ({ account, params, query }, models) => {
      const range = query.get("range") ?? "daily";
      if (range !== "daily" && range !== "weekly") throw apiError("INVALID_RANGE");
      const window = { start: windowBound(query, "start"), end: windowBound(query, "end") };
      const app = models.apps.accessible(account, params.id, "read");
      return success(models.analytics.analytics(app, range, window));
    },
  },
  {
    method: "GET",
    template: "/v2/apps/:id/deployments",
    handler: ({ account, params }, models) =>
      success(models.apps.deployments(models.apps.accessible(account, params.id, "read"))),
  },
  {
    method: "POST",
    template: "/v2/apps/:id/snapshots",
    handler: ({ account, params, req }, models) => {
      const app = models.apps.accessible(account, params.id, "write");
      return success(models.snapshots.createAppSnapshot(account, app, selfUrl(req, SNAPSHOT_DOWNLOAD_PATH)));
    },
  },
  {
    // Not in the API reference, but the official @squarecloud/api client lists snapshots here.
    method: "GET",
    template: "/v2/apps/:id/snapshots",
    handler: ({ account, params }, models) =>
      success(models.snapshots.forApp(models.apps.accessible(account, params.id, "read").id)),
  },
  {
    method: "PATCH",
    template: "/v2/apps/:id/files",
    handler: async ({ account, params, json }, models) => {
      const app = models.apps.accessible(account, params.id, "write");
      const body = parseBody(moveFileBody, await json(), {}, "INVALID_PATH");
      models.apps.moveFile(app, body.path, body.to);
      return success();
    },
  },
];

/**
 * Snapshot downloads on the platform server: `<platform URL>/snapshots/<scope>/<owner>/<id>.zip?<key>`,
 * the URL a snapshot's creation answers (the live service's snapshot host, with this server in its place).
 */
export const snapshotDownloadRoutes: PublicRoute[] = [
  {
    prefix: SNAPSHOT_DOWNLOAD_PATH,
    handler: (objectPath, core, query) => ({
      body: core.models.snapshots.download(objectPath, query),
      headers: { "Content-Type": "application/zip" },
    }),
  },
];
