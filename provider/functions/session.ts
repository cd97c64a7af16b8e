import { accountKey, createClient, type SquareCloudClient } from "../client";
import type { ProviderConfig } from "../config";
import type { Account } from "../client/payloads/platform";
import { Memo, memoKey } from "./memo";

/**
 * What the reads of one configuration share in a process: one client (never closed: undici unrefs
 * idle sockets), the memo, and one check of the settings (the account read) that every read awaits.
 */

export interface Session {
  /** The account of the key; the first request of the session, which every read waits for. */
  account(): Promise<Account>;
  /** Every read of this configuration, by function and arguments. */
  read<T>(name: string, args: object, task: (client: SquareCloudClient) => Promise<T>): Promise<T>;
}

const sessions = new Map<string, Session>();

/** The session of this key and these URLs, made at its first use. */
export function sessionOf(config: ProviderConfig): Session {
  const key = accountKey(config);
  let session = sessions.get(key);
  if (!session) {
    const client = createClient(config);
    const memo = new Memo();
    // Kept when it fails, unlike the memo's reads: the settings will not change within the run.
    let account: Promise<Account> | undefined;
    const checked = () => (account ??= client.me());
    const ready = () => (config.skipCredentialsCheck ? Promise.resolve() : checked());
    session = {
      account: checked,
      read: async (name, args, task) => {
        await ready();
        return memo.get(memoKey(name, args), () => task(client));
      },
    };
    sessions.set(key, session);
  }
  return session;
}
