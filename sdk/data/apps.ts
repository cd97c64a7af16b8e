import type * as platform from "../../provider/client/payloads/platform";
import { AppSummary, appSummaryView, getAccount } from "./account";
import { ARGUMENTS, checkArguments } from "./arguments";
import { Deployment, groupDeployments } from "./deployments";
import { idOrName, oneNamed } from "./lookup";
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
  checkArguments("getApps", { name: ARGUMENTS.optionalText, language: ARGUMENTS.optionalText, cluster: ARGUMENTS.optionalText }, args);
  const account = await getAccount(opts);
  return { apps: filterApps(account.applications, args) };
});

export const getAppsOutput = outputForm(getApps);

/** Every filter given must match exactly. */
export function filterApps(apps: readonly AppSummary[], filter: GetAppsArgs): AppSummary[] {
  return apps.filter(
    (app) =>
      (filter.name === undefined || app.name === filter.name) &&
      (filter.language === undefined || app.language === filter.language) &&
      (filter.cluster === undefined || app.cluster === filter.cluster),
  );
}

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
  checkArguments("getApp", { id: ARGUMENTS.optionalId, name: ARGUMENTS.optionalText }, args);
  const by = idOrName("getApp", args);
  const id = "id" in by ? by.id : oneNamed((await getAccount(opts)).applications, by.name, "application").id;
  return sessionFor(opts).read("getApp", { id }, async (client) => appView(await client.getApp(id)));
});

export const getAppOutput = outputForm(getApp);

/** The read by id names the language `language` where the listing says `lang`; the rest reads alike. */
function appView(app: platform.App): App {
  return { ...appSummaryView({ ...app, lang: app.language }), owner: app.owner, createdAt: app.created_at };
}

// ---- getAppAnalytics

export interface GetAppAnalyticsArgs {
  appId: string;
  /** daily: the last 24 hours (default); weekly: the last 7 days. */
  range?: platform.AnalyticsRange;
}

/** Every array is present; an app without traffic (or a window before it existed) has empty ones. */
export type GetAppAnalyticsResult = { appId: string; range: platform.AnalyticsRange } & platform.Analytics;

/**
 * Traffic of an application's website. The API computes one answer per 10 s per app: calls with
 * the same app and range in one program share a single request.
 */
export const getAppAnalytics = promiseForm(async function getAppAnalytics(
  args: GetAppAnalyticsArgs,
  opts?: DataSourceOptions,
): Promise<GetAppAnalyticsResult> {
  checkArguments("getAppAnalytics", { appId: ARGUMENTS.id, range: ARGUMENTS.range }, args);
  const { appId, range = "daily" } = args;
  return sessionFor(opts).read("getAppAnalytics", { appId, range }, async (client) => ({
    appId,
    range,
    ...(await client.appAnalytics(appId, range)),
  }));
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
  checkArguments("getAppDeployments", { appId: ARGUMENTS.id }, args);
  const { appId } = args;
  return sessionFor(opts).read("getAppDeployments", { appId }, async (client) => ({
    appId,
    deployments: groupDeployments(await client.appDeployments(appId)),
  }));
});

export const getAppDeploymentsOutput = outputForm(getAppDeployments);
