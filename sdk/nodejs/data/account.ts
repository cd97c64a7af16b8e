import * as declared from "../../../provider/functions/account";
import { runFunction } from "../../../provider/functions/declaration";
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
  return runFunction(declared.getAccount, {}, () => sessionFor(opts));
});

export const getAccountOutput = outputForm(getAccount);
