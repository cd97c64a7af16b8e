import { iso } from "../clock";
import { apiError } from "../errors";
import { randomHex } from "../random";
import { planRecord, type PlanName } from "../seed";
import type { AccountRecord } from "../state";
import { ACCOUNT_NAME_PATTERN } from "./rules";
import type { ModelContext } from "./model-context";

export interface MemoryUsage {
  limit: number;
  used: number;
  available: number;
}

/** Accounts, API-key authentication and the plan's memory accounting. */
export class AccountsModel {
  constructor(private readonly ctx: ModelContext) {}

  /** The Authorization header carries the raw key, no scheme prefix (docs/configuration.md). */
  authenticate(authorization: string | undefined): AccountRecord {
    const key = authorization?.trim();
    const account = key ? this.ctx.data.accounts.find((a) => a.apiKey === key) : undefined;
    if (!account) throw apiError("ACCESS_DENIED");
    return account;
  }

  find(accountId: string): AccountRecord | undefined {
    return this.ctx.data.accounts.find((a) => a.id === accountId);
  }

  /** Apps' RAM plus every database's memory, running or stopped (emulator/README.md, "Plan memory"). */
  memoryUsage(account: AccountRecord): MemoryUsage {
    const { apps, databases } = this.ctx.data;
    const used =
      apps.filter((a) => a.ownerId === account.id).reduce((sum, a) => sum + a.ram, 0) +
      databases.filter((d) => d.ownerId === account.id).reduce((sum, d) => sum + d.memory, 0);
    const limit = account.plan.memoryLimitMb;
    return { limit, used, available: Math.max(0, limit - used) };
  }

  /**
   * Issues the account a new API key and revokes the old one at once, as regenerating the key in
   * the dashboard does: from now on only the new key authenticates.
   */
  rotateApiKey(accountId: string): string {
    const account = this.find(accountId);
    if (!account) throw apiError("ACCOUNT_NOT_FOUND");
    account.apiKey = `${account.id}-${randomHex(40)}`;
    return account.apiKey;
  }

  /**
   * A new account beside the seeded ones (the admin surface): more people than the seed's four,
   * say one invitee per workspace member when many stacks add members at once, each invite code
   * being single use. Its id is numeric, as the service's; its key starts with it.
   */
  create(name: string, plan: PlanName): AccountRecord {
    if (!ACCOUNT_NAME_PATTERN.test(name) || this.ctx.data.accounts.some((a) => a.name === name))
      throw apiError("INVALID_ACCOUNT");
    const now = this.ctx.clock.now();
    const id = `9${String(now).slice(-9)}${String(this.ctx.data.accounts.length).padStart(8, "0")}`;
    const account: AccountRecord = {
      id,
      name,
      email: `${name}@example.com`,
      apiKey: `${id}-${randomHex(40)}`,
      locale: "en-US",
      createdAt: now,
      plan: planRecord(plan, now),
    };
    this.ctx.data.accounts.push(account);
    return account;
  }

  /** Throws INSUFFICIENT_MEMORY unless `extraMb` more fits in the plan. */
  reserveMemory(account: AccountRecord, extraMb: number): void {
    if (extraMb > this.memoryUsage(account).available) throw apiError("INSUFFICIENT_MEMORY");
  }

  userView(account: AccountRecord) {
    return {
      id: account.id,
      name: account.name,
      email: account.email,
      locale: account.locale,
      created_at: iso(account.createdAt),
      plan: {
        name: account.plan.name,
        memory: this.memoryUsage(account),
        duration: account.plan.duration,
      },
    };
  }
}
