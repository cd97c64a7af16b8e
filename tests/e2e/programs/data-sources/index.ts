// Reads every data source and exports what it got, so the e2e suite can check the values against
// the emulator. Config `scenario`: "read" (default) reads everything for the ids given in config
// `ids` (and, for a second account, the secret `memberApiKey`); "appByName" only looks up the application named in config `appName`, for the failures.
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const config = new pulumi.Config();

interface Ids {
  website: string;
  bot: string;
  api: string;
  cache: string;
  main: string;
  workspace: string;
  workspaceName: string;
  blobPrefix: string;
}

function readEverything(ids: Ids) {
  const websiteAnalytics = sq.getAppAnalyticsOutput({ appId: ids.website });
  // Another account, through the per-call options: a workspace member reading a linked app.
  const memberKey = config.requireSecret("memberApiKey");
  return {
    account: sq.getAccountOutput(),
    apps: sq.getAppsOutput(),
    pythonApps: sq.getAppsOutput({ language: "python" }),
    florida1Apps: sq.getAppsOutput({ cluster: "florida-1" }),
    appsNamedApi: sq.getAppsOutput({ name: "Alice API" }),
    appsNowhere: sq.getAppsOutput({ cluster: "nowhere-9" }),
    websiteById: sq.getAppOutput({ id: ids.website }),
    memberId: sq.getAccountOutput({ apiKey: memberKey }).user.id,
    apiSeenByMember: sq.getAppOutput({ id: ids.api }, { apiKey: memberKey }),
    botByName: sq.getAppOutput({ name: "Alice Bot" }),
    websiteAnalytics,
    // The same app and range again, once per form: the program must still make one request.
    websiteAnalyticsVisits: sq.getAppAnalyticsOutput({ appId: ids.website, range: "daily" }).visits,
    websiteAnalyticsCountries: sq.getAppAnalytics({ appId: ids.website }).then((analytics) => analytics.countries),
    apiWeeklyAnalytics: sq.getAppAnalyticsOutput({ appId: ids.api, range: "weekly" }),
    botAnalytics: sq.getAppAnalyticsOutput({ appId: ids.bot }),
    websiteDeployments: sq.getAppDeploymentsOutput({ appId: ids.website }),
    cacheMetrics: sq.getDatabaseMetricsOutput({ databaseId: ids.cache }),
    databaseSnapshots: sq.getSnapshotsOutput({ scope: "databases" }),
    appSnapshots: sq.getSnapshotsOutput(),
    latestMainSnapshot: sq.getLatestDatabaseSnapshotOutput({ databaseId: ids.main }),
    // The Promise form's entries carry the key in plain text: take only what is not secret.
    latestCacheVersion: sq.getLatestDatabaseSnapshot({ databaseId: ids.cache }).then((entry) => entry.versionId),
    workspaces: sq.getWorkspacesOutput(),
    workspaceById: sq.getWorkspaceOutput({ id: ids.workspace }),
    workspaceByName: sq.getWorkspaceOutput({ name: ids.workspaceName }),
    prefixedObjects: sq.getBlobObjectsOutput({ prefix: ids.blobPrefix }),
    allObjects: sq.getBlobObjectsOutput(),
    blobStats: sq.getBlobStatsOutput(),
  };
}

const scenario = config.get("scenario") ?? "read";

export const result =
  scenario === "appByName"
    ? { app: sq.getAppOutput({ name: config.require("appName") }) }
    : readEverything(config.requireObject<Ids>("ids"));
