import { getAccount } from "./account";
import { getApp, getAppAnalytics, getAppDeployments, getApps } from "./apps";
import { getBlobObjects, getBlobStats } from "./blob";
import { getDatabaseMetrics, getLatestDatabaseSnapshot, getSnapshots } from "./databases";
import { getWorkspace, getWorkspaces } from "./workspaces";

/** Every data source the package serves, in the order its docs list them. */
export const functions = [
  getAccount,
  getApps,
  getApp,
  getAppAnalytics,
  getAppDeployments,
  getDatabaseMetrics,
  getSnapshots,
  getLatestDatabaseSnapshot,
  getWorkspaces,
  getWorkspace,
  getBlobObjects,
  getBlobStats,
] as const;
