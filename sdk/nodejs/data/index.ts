/**
 * Data sources: plain functions that read the platform and blob APIs from the program's process
 * (a dynamic provider cannot serve invokes). Each comes as `getX` (a Promise) and `getXOutput`
 * (an Output, taking Inputs), and runs the read declared in provider/functions, which the native
 * plugin serves to Pulumi YAML as `squarecloud:index:getX`.
 */
export { getAccount, getAccountOutput } from "./account";
export type { AppSummary, DatabaseSummary, GetAccountResult } from "./account";
export {
  filterApps,
  getApp,
  getAppAnalytics,
  getAppAnalyticsOutput,
  getAppDeployments,
  getAppDeploymentsOutput,
  getAppOutput,
  getApps,
  getAppsOutput,
} from "./apps";
export type {
  AnalyticsPoint,
  App,
  GetAppAnalyticsArgs,
  GetAppAnalyticsResult,
  GetAppArgs,
  GetAppDeploymentsArgs,
  GetAppDeploymentsResult,
  GetAppsArgs,
  GetAppsResult,
} from "./apps";
export type { Deployment, DeploymentStep } from "../../../provider/functions/deployments";
export {
  getDatabaseMetrics,
  getDatabaseMetricsOutput,
  getLatestDatabaseSnapshot,
  getLatestDatabaseSnapshotOutput,
  getSnapshots,
  getSnapshotsOutput,
  latestSnapshotOf,
} from "./databases";
export type {
  GetDatabaseMetricsArgs,
  GetDatabaseMetricsResult,
  GetLatestDatabaseSnapshotArgs,
  GetSnapshotsArgs,
  GetSnapshotsResult,
  MetricPoint,
  SnapshotEntry,
  SnapshotEntryOutput,
} from "./databases";
export { getWorkspace, getWorkspaceOutput, getWorkspaces, getWorkspacesOutput } from "./workspaces";
export type { GetWorkspaceArgs, GetWorkspaceResult, GetWorkspacesResult } from "./workspaces";
export { getBlobObjects, getBlobObjectsOutput, getBlobStats, getBlobStatsOutput } from "./blob";
export type { BlobObjectSummary, GetBlobObjectsArgs, GetBlobObjectsResult, GetBlobStatsResult } from "./blob";
export type { DataSourceOptions } from "./options";
