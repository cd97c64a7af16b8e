import { z } from "zod";
import { AnalyticsRange } from "../client/payloads/platform";
import type * as platform from "../client/payloads/platform";
import { field } from "../kinds/declaration";
import { appSummary, appSummaryFields, appSummaryView, getAccount } from "./account";
import { ARGUMENTS } from "./arguments";
import { declareFunction } from "./declaration";
import { groupDeployments } from "./deployments";
import { idOrName, oneNamed } from "./lookup";

// ---- getApps

export const getApps = declareFunction({
  name: "getApps",
  description: "The account's own applications (not those shared through a workspace), optionally filtered.",
  args: {
    name: field(ARGUMENTS.optionalText, "Exact display name."),
    language: field(ARGUMENTS.optionalText, 'Exact language or runtime, e.g. "javascript".'),
    cluster: field(ARGUMENTS.optionalText, 'Exact cluster name, e.g. "florida-1".'),
  },
  result: {
    apps: field(z.array(appSummary), "The applications every filter given matches exactly."),
  },
  read: async (args, session) => ({ apps: filterApps((await getAccount.read({}, session)).applications, args) }),
});

/** Every filter given must match exactly. */
export function filterApps<A extends { name: string; language: string; cluster: string }>(
  apps: readonly A[],
  filter: { name?: string; language?: string; cluster?: string },
): A[] {
  return apps.filter(
    (app) =>
      (filter.name === undefined || app.name === filter.name) &&
      (filter.language === undefined || app.language === filter.language) &&
      (filter.cluster === undefined || app.cluster === filter.cluster),
  );
}

// ---- getApp

export const getApp = declareFunction({
  name: "getApp",
  description: "One application, by id or by name. A name matching none or several fails, listing the candidates.",
  args: {
    id: field(ARGUMENTS.optionalId, "The application id; works for applications shared through a workspace too."),
    name: field(
      ARGUMENTS.optionalText,
      "Exact display name among the account's own applications; fails unless exactly one matches.",
    ),
  },
  argsRequired: true,
  result: {
    ...appSummaryFields,
    owner: field(z.string(), "User id of the owner."),
    createdAt: field(z.string(), "ISO 8601 time the application was created."),
  },
  read: async (args, session) => {
    const by = idOrName("getApp", args);
    const id =
      "id" in by ? by.id : oneNamed((await getAccount.read({}, session)).applications, by.name, "application").id;
    return session().read("getApp", { id }, async (client) => appView(await client.getApp(id)));
  },
});

/** The read by id names the language `language` where the listing says `lang`; the rest reads alike. */
function appView(app: platform.App) {
  return { ...appSummaryView({ ...app, lang: app.language }), owner: app.owner, createdAt: app.created_at };
}

// ---- getAppAnalytics

const analyticsPoints = (what: string) =>
  field(
    z.array(
      field(
        z.object({
          type: field(z.string().optional(), "The dimension's value (a country, a path, ...); absent in `visits`."),
          visits: field(z.number(), "Number of visits."),
          requests: field(z.number(), "Number of requests."),
          bytes: field(z.number(), "Bytes served."),
          date: field(z.string(), "ISO 8601 time of the point."),
        }),
        "Traffic of one dimension value, or of one point in time.",
        { schemaType: "AnalyticsPoint" },
      ),
    ),
    what,
  );

export const getAppAnalytics = declareFunction({
  name: "getAppAnalytics",
  description:
    "Traffic of an application's website. The API computes one answer per 10 s per app: calls with the same app, range and bounds in one program share a single request.",
  args: {
    appId: field(ARGUMENTS.id, "The application's id."),
    range: field(ARGUMENTS.range, "`daily`: the last 24 hours (default); `weekly`: the last 7 days."),
    start: field(
      ARGUMENTS.time,
      "ISO 8601 time: only the range's points from this time on (the official clients' `start`).",
    ),
    end: field(ARGUMENTS.time, "ISO 8601 time: only the range's points up to this time (the official clients' `end`)."),
  },
  result: {
    appId: field(z.string(), "The application's id."),
    range: field(AnalyticsRange, "The range read: `daily` or `weekly`."),
    start: field(z.string().optional(), "The start given, if any."),
    end: field(z.string().optional(), "The end given, if any."),
    visits: analyticsPoints("Visits over time. Every list is present: an app without traffic has empty ones."),
    countries: analyticsPoints("By country."),
    devices: analyticsPoints("By kind of device."),
    os: analyticsPoints("By operating system."),
    browsers: analyticsPoints("By browser."),
    protocols: analyticsPoints("By protocol."),
    methods: analyticsPoints("By HTTP method."),
    paths: analyticsPoints("By request path."),
    referers: analyticsPoints("By referer."),
    providers: analyticsPoints("By network provider."),
  },
  read: async ({ appId, range = "daily", start, end }, session) => {
    if (start !== undefined && end !== undefined && Date.parse(start) >= Date.parse(end))
      throw new Error(`getAppAnalytics: start must be before end, got start "${start}" and end "${end}"`);
    const bounds = { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) };
    return session().read("getAppAnalytics", { appId, range, ...bounds }, async (client) => ({
      appId,
      range,
      ...bounds,
      ...(await client.appAnalytics(appId, range, bounds)),
    }));
  },
});

// ---- getAppDeployments

const deploymentStep = field(
  z.object({
    state: field(z.string(), "pending, clone, success, error, commit, restarting, or a state not documented yet."),
    date: field(z.string(), "ISO 8601 time of the event."),
  }),
  "One event of a deployment.",
  { schemaType: "DeploymentStep" },
);

const deployment = field(
  z.object({
    id: field(z.string(), "The deployment's id."),
    state: field(z.string(), "The state of the latest event: the outcome once the deployment is over."),
    branch: field(z.string().optional(), "The git branch the deployment cloned, as its `clone` event names it."),
    startedAt: field(z.string(), "ISO 8601: the first event."),
    updatedAt: field(z.string(), "ISO 8601: the latest event."),
    events: field(z.array(deploymentStep), "The deployment's events, earliest first."),
  }),
  "A deployment of an application.",
  { schemaType: "Deployment" },
);

export const getAppDeployments = declareFunction({
  name: "getAppDeployments",
  description: "An application's deployments of the past 24 hours, each with its events.",
  args: { appId: field(ARGUMENTS.id, "The application's id.") },
  result: {
    appId: field(z.string(), "The application's id."),
    deployments: field(z.array(deployment), "At most the last 10 of the past 24 hours, most recent first."),
  },
  read: async ({ appId }, session) =>
    session().read("getAppDeployments", { appId }, async (client) => ({
      appId,
      deployments: groupDeployments(await client.appDeployments(appId)),
    })),
});
