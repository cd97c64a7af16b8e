// What only the TypeScript SDK offers beside the generated data sources (functions.ts): helpers over
// their results, and the name getApp's result had before its type was generated.
import * as apps from "../../../provider/functions/apps";
import * as databases from "../../../provider/functions/databases";
import type { AppSummary, GetAppResult, GetAppsArgs } from "./generated";

/** Every filter given must match exactly. */
export const filterApps: (apps: readonly AppSummary[], filter: GetAppsArgs) => AppSummary[] = apps.filterApps;

/** The most recent entry that belongs to `owner` (a database or application id), if any. */
export const latestSnapshotOf = databases.latestSnapshotOf;

/** An application as `getApp` reads it: what the account listing shows, with its owner and creation date. */
export type App = GetAppResult;
