import type * as platform from "../../provider/client/payloads/platform";
import { outputForm, promiseForm } from "./forms";
import type { DataSourceOptions } from "./options";
import { sessionFor } from "./session";

/** An application as the account listing shows it. */
export interface AppSummary {
  id: string;
  name: string;
  description?: string;
  /** MB. */
  ram: number;
  /** Language or runtime, e.g. "javascript", "python". */
  language: string;
  /** The auto-assigned subdomain, for apps with a website. */
  domain?: string;
  customDomain?: string;
  cluster: string;
  /** ISO 8601. */
  createdAt?: string;
}

/** A database as the account listing shows it; no credentials. */
export interface DatabaseSummary {
  id: string;
  name: string;
  /** "mongo" or "redis". */
  type?: string;
  /** MB. */
  memory?: number;
  cpu?: number;
  cluster?: string;
  /** ISO 8601. */
  createdAt?: string;
}

export interface GetAccountResult {
  user: {
    id: string;
    name: string;
    email: string;
    locale?: string;
    createdAt?: string;
    plan: {
      name: string;
      /** MB: the plan's RAM, what is free for new apps and databases, what they use. */
      memory: { limit: number; available: number; used: number };
      /** ISO 8601 end of the current plan period; free plans may have none. */
      periodEnd?: string;
    };
  };
  applications: AppSummary[];
  databases: DatabaseSummary[];
}

/** The account of the API key: user, plan and memory, its applications and databases. */
export const getAccount = promiseForm(async function getAccount(opts?: DataSourceOptions): Promise<GetAccountResult> {
  return accountView(await sessionFor(opts).account());
});

export const getAccountOutput = outputForm(getAccount);

function accountView(account: platform.Account): GetAccountResult {
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

export function appSummaryView(app: platform.AppSummary): AppSummary {
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
