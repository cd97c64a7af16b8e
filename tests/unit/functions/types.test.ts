import { functions } from "../../../provider/functions";
import type * as account from "../../../provider/functions/account";
import type * as apps from "../../../provider/functions/apps";
import type * as blob from "../../../provider/functions/blob";
import type * as databases from "../../../provider/functions/databases";
import type { FunctionArgs, FunctionResult } from "../../../provider/functions/declaration";
import type * as workspaces from "../../../provider/functions/workspaces";
import type * as sdk from "../../../sdk/nodejs/functions";

// The SDK's argument and result types are generated as text (scripts/gen/sdk-functions.ts), for their
// doc comments. This file compiles only while each is the type zod infers from its declaration,
// both ways: a generator that writes a field's type wrong breaks the build.

/** TypeScript's identity of types: an optional field on one side only is a difference too. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when A and B are the same type. */
function same<A, B>(..._proof: Same<A, B> extends true ? [] : [never]): true {
  return true;
}

type NoArgs = Record<string, never>;

const agreed = {
  getAccount: [
    same<FunctionArgs<typeof account.getAccount>, NoArgs>(),
    same<sdk.GetAccountResult, FunctionResult<typeof account.getAccount>>(),
  ],
  getApps: [
    same<sdk.GetAppsArgs, FunctionArgs<typeof apps.getApps>>(),
    same<sdk.GetAppsResult, FunctionResult<typeof apps.getApps>>(),
  ],
  getApp: [
    same<sdk.GetAppArgs, FunctionArgs<typeof apps.getApp>>(),
    same<sdk.GetAppResult, FunctionResult<typeof apps.getApp>>(),
  ],
  getAppAnalytics: [
    same<sdk.GetAppAnalyticsArgs, FunctionArgs<typeof apps.getAppAnalytics>>(),
    same<sdk.GetAppAnalyticsResult, FunctionResult<typeof apps.getAppAnalytics>>(),
  ],
  getAppDeployments: [
    same<sdk.GetAppDeploymentsArgs, FunctionArgs<typeof apps.getAppDeployments>>(),
    same<sdk.GetAppDeploymentsResult, FunctionResult<typeof apps.getAppDeployments>>(),
  ],
  getDatabaseMetrics: [
    same<sdk.GetDatabaseMetricsArgs, FunctionArgs<typeof databases.getDatabaseMetrics>>(),
    same<sdk.GetDatabaseMetricsResult, FunctionResult<typeof databases.getDatabaseMetrics>>(),
  ],
  getSnapshots: [
    same<sdk.GetSnapshotsArgs, FunctionArgs<typeof databases.getSnapshots>>(),
    same<sdk.GetSnapshotsResult, FunctionResult<typeof databases.getSnapshots>>(),
  ],
  getLatestDatabaseSnapshot: [
    same<sdk.GetLatestDatabaseSnapshotArgs, FunctionArgs<typeof databases.getLatestDatabaseSnapshot>>(),
    same<sdk.GetLatestDatabaseSnapshotResult, FunctionResult<typeof databases.getLatestDatabaseSnapshot>>(),
  ],
  getWorkspaces: [
    same<FunctionArgs<typeof workspaces.getWorkspaces>, NoArgs>(),
    same<sdk.GetWorkspacesResult, FunctionResult<typeof workspaces.getWorkspaces>>(),
  ],
  getWorkspace: [
    same<sdk.GetWorkspaceArgs, FunctionArgs<typeof workspaces.getWorkspace>>(),
    same<sdk.GetWorkspaceResult, FunctionResult<typeof workspaces.getWorkspace>>(),
  ],
  getBlobObjects: [
    same<sdk.GetBlobObjectsArgs, FunctionArgs<typeof blob.getBlobObjects>>(),
    same<sdk.GetBlobObjectsResult, FunctionResult<typeof blob.getBlobObjects>>(),
  ],
  getBlobStats: [
    same<FunctionArgs<typeof blob.getBlobStats>, NoArgs>(),
    same<sdk.GetBlobStatsResult, FunctionResult<typeof blob.getBlobStats>>(),
  ],
};

test("every declared function has its SDK types checked against its declaration", () => {
  expect(Object.keys(agreed).sort()).toEqual(functions.map((fn) => fn.name).sort());
});
