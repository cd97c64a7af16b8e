import type * as platform from "../../../provider/client/payloads/platform";
import * as declared from "../../../provider/functions/apps";
import { runFunction } from "../../../provider/functions/declaration";
import type { Deployment } from "../../../provider/functions/deployments";
import type { AppSummary } from "./account";
import { outputForm, promiseForm } from "./forms";
import type { DataSourceOptions } from "./options";
import { sessionFor } from "./session";

// ---- getApps

export interface GetAppsArgs {
  /** Exact display name. */
  name?: string;
  /** Exact language or runtime, e.g. "javascript". */
  language?: string;
  /** Exact cluster name, e.g. "florida-1". */
  cluster?: string;
}

export interface GetAppsResult {
  apps: AppSummary[];
}

/** The account's own applications (not those shared through a workspace), optionally filtered. */
export const getApps = promiseForm(async function getApps(
  args: GetAppsArgs = {},
  opts?: DataSourceOptions,
): Promise<GetAppsResult> {
  return runFunction(declared.getApps, args, () => sessionFor(opts));
});

export const getAppsOutput = outputForm(getApps);

/** Every filter given must match exactly. */
export const filterApps: (apps: readonly AppSummary[], filter: GetAppsArgs) => AppSummary[] = declared.filterApps;

// ---- getApp

export interface GetAppArgs {
  /** The application id; works for applications shared through a workspace too. */
  id?: string;
  /** Exact display name among the account's own applications; fails unless exactly one matches. */
  name?: string;
}

/** An application read by id: what the account listing shows of it, with its owner and always its creation date. */
export interface App extends AppSummary {
  /** User id of the owner. */
  owner: string;
  /** ISO 8601. */
  createdAt: string;
}

/** One application, by id or by name. A name matching none or several fails, listing the candidates. */
export const getApp = promiseForm(async function getApp(args: GetAppArgs, opts?: DataSourceOptions): Promise<App> {
  return runFunction(declared.getApp, args, () => sessionFor(opts));
});

export const getAppOutput = outputForm(getApp);

// ---- getAppAnalytics

export interface GetAppAnalyticsArgs {
  appId: string;
  /** daily: the last 24 hours (default); weekly: the last 7 days. */
  range?: platform.AnalyticsRange;
}

/** Traffic of one dimension value (`type`: a country, a path, ...), or of one point in time (in `visits`). */
export interface AnalyticsPoint {
  /** Absent in `visits`. */
  type?: string;
  visits: number;
  requests: number;
  bytes: number;
  /** ISO 8601. */
  date: string;
}

/** Every array is present; an app without traffic (or a window before it existed) has empty ones. */
export interface GetAppAnalyticsResult {
  appId: string;
  range: platform.AnalyticsRange;
  visits: AnalyticsPoint[];
  countries: AnalyticsPoint[];
  devices: AnalyticsPoint[];
  os: AnalyticsPoint[];
  browsers: AnalyticsPoint[];
  protocols: AnalyticsPoint[];
  methods: AnalyticsPoint[];
  paths: AnalyticsPoint[];
  referers: AnalyticsPoint[];
  providers: AnalyticsPoint[];
}

/**
 * Traffic of an application's website. The API computes one answer per 10 s per app: calls with
 * the same app and range in one program share a single request.
 */
export const getAppAnalytics = promiseForm(async function getAppAnalytics(
  args: GetAppAnalyticsArgs,
  opts?: DataSourceOptions,
): Promise<GetAppAnalyticsResult> {
  return runFunction(declared.getAppAnalytics, args, () => sessionFor(opts));
});

export const getAppAnalyticsOutput = outputForm(getAppAnalytics);

// ---- getAppDeployments

export interface GetAppDeploymentsArgs {
  appId: string;
}

export interface GetAppDeploymentsResult {
  appId: string;
  /** At most the last 10 of the past 24 hours, most recent first. */
  deployments: Deployment[];
}

export const getAppDeployments = promiseForm(async function getAppDeployments(
  args: GetAppDeploymentsArgs,
  opts?: DataSourceOptions,
): Promise<GetAppDeploymentsResult> {
  return runFunction(declared.getAppDeployments, args, () => sessionFor(opts));
});

export const getAppDeploymentsOutput = outputForm(getAppDeployments);
