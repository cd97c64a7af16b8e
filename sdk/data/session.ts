import * as pulumi from "@pulumi/pulumi";
import { accountKey, createClient, SquareCloudClient } from "../../provider/client";
import { resolveConfig, SETTINGS } from "../../provider/config";
import type { Account } from "../../provider/client/payloads/platform";
import { Memo, memoKey } from "./memo";
import type { DataSourceOptions } from "./options";

/**
 * What data sources share inside the program's process: the configuration, read the way the
 * resources read it (stack config `squarecloud:*`, then the environment, then the defaults), one
 * client per configuration, and the memo of every read made so far.
 *
 * A session checks its settings once, before its first read, with the read of the account that
 * getAccount (and what derives from it) shares: a refused key or an unreachable URL then fails
 * every data source with that one error, which the program reports once (see forms.ts).
 *
 * The client is never closed: undici unrefs idle keep-alive sockets, so they do not keep the
 * program's process alive once the program is done.
 */

export interface Session {
  /** The account of the key; the first request of the session, which every read waits for. */
  account(): Promise<Account>;
  /** Every read of this configuration, by function and arguments. */
  read<T>(name: string, args: object, task: (client: SquareCloudClient) => Promise<T>): Promise<T>;
}

const sessions = new Map<string, Session>();

/** Throws a ConfigError that says how to set a missing API key. */
export function sessionFor(options: DataSourceOptions = {}): Session {
  const config = resolveConfig(stackConfig(), options);
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

/**
 * The raw runtime lookup, not `Config.get`: the latter is meant to warn when it reads a secret
 * (the warning is switched off in today's SDK, not removed), and the key is read here only to be
 * handed to the client, never shown.
 */
function stackConfig(): Record<string, string | undefined> {
  return Object.fromEntries(Object.values(SETTINGS).map(({ key }) => [key, pulumi.runtime.getConfig(key)]));
}

