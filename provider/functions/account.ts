import { z } from "zod";
import type * as platform from "../client/payloads/platform";
import { field } from "../kinds/declaration";
import { declareFunction } from "./declaration";

const isoDate = (what: string) => `ISO 8601 time ${what}.`;

/** An application as the account listing shows it; getApps lists these, getApp adds to them. */
export const appSummaryFields = {
  id: field(z.string(), "The application's id."),
  name: field(z.string(), "The application's display name."),
  description: field(z.string().optional(), "The application's description, if it has one."),
  ram: field(z.number(), "The application's RAM, in MB."),
  language: field(z.string(), 'Language or runtime, e.g. "javascript", "python".'),
  domain: field(z.string().optional(), "The auto-assigned subdomain, for apps with a website."),
  customDomain: field(z.string().optional(), "The custom domain, if one is set."),
  cluster: field(z.string(), "The cluster the application runs on."),
  createdAt: field(z.string().optional(), isoDate("the application was created")),
};

export const appSummary = field(z.object(appSummaryFields), "An application as the account listing shows it.", {
  schemaType: "AppSummary",
});

const databaseSummary = field(
  z.object({
    id: field(z.string(), "The database's id."),
    name: field(z.string(), "The database's name."),
    type: field(z.string().optional(), '"mongo" or "redis".'),
    memory: field(z.number().optional(), "The database's RAM, in MB."),
    cpu: field(z.number().optional(), "CPU share the platform gives the database."),
    cluster: field(z.string().optional(), "The cluster the database runs on."),
    createdAt: field(z.string().optional(), isoDate("the database was created")),
  }),
  "A database as the account listing shows it; no credentials.",
  { schemaType: "DatabaseSummary" },
);

const megabytes = (what: string) => field(z.number(), `MB ${what}.`);

const user = field(
  z.object({
    id: field(z.string(), "The user id."),
    name: field(z.string(), "The user's display name."),
    email: field(z.string(), "The user's email address."),
    locale: field(z.string().optional(), "The user's locale, if set."),
    createdAt: field(z.string().optional(), isoDate("the account was created")),
    plan: field(
      z.object({
        name: field(z.string(), 'The plan\'s name, e.g. "standard-8".'),
        memory: field(
          z.object({
            limit: megabytes("the plan gives"),
            available: megabytes("free for new apps and databases"),
            used: megabytes("used by apps and databases"),
          }),
          "The plan's RAM, what is free for new apps and databases, what they use.",
          { schemaType: "PlanMemory" },
        ),
        periodEnd: field(z.string().optional(), "ISO 8601 end of the current plan period; free plans may have none."),
      }),
      "The account's plan.",
      { schemaType: "AccountPlan" },
    ),
  }),
  "The user the API key belongs to, and the plan.",
  { schemaType: "AccountUser" },
);

export const getAccount = declareFunction({
  name: "getAccount",
  description: "The account of the API key: user, plan and memory, its applications and databases.",
  args: {},
  result: {
    user,
    applications: field(z.array(appSummary), "The account's own applications."),
    databases: field(z.array(databaseSummary), "The account's databases, without credentials."),
  },
  read: async (_args, session) => accountView(await session().account()),
});

function accountView(account: platform.Account) {
  const { user } = account;
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      locale: user.locale,
      createdAt: user.created_at,
      plan: {
        name: user.plan.name,
        memory: user.plan.memory,
        periodEnd: user.plan.duration === undefined ? undefined : new Date(user.plan.duration).toISOString(),
      },
    },
    applications: account.applications.map(appSummaryView),
    // connection_url is left out: the listing may carry credentials in it.
    databases: account.databases.map((db) => ({
      id: db.id,
      name: db.name,
      type: db.type,
      memory: db.memory,
      cpu: db.cpu,
      cluster: db.cluster,
      createdAt: db.created_at,
    })),
  };
}

export function appSummaryView(app: platform.AppSummary) {
  return {
    id: app.id,
    name: app.name,
    description: text(app.desc),
    ram: app.ram,
    language: app.lang,
    domain: text(app.domain),
    customDomain: text(app.custom),
    cluster: app.cluster,
    createdAt: app.created_at,
  };
}

/** The API sends "" for "none" (no custom domain, no description). */
function text(value: string | undefined): string | undefined {
  return value === "" ? undefined : value;
}
