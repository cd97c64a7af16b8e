import * as pulumi from "@pulumi/pulumi";
import { accountKey, createClient, SquareCloudClient } from "../../provider/client";
import { nonEmpty, resolveConfig } from "../../provider/config";
import { Memo, memoKey } from "./memo";
import type { DataSourceOptions } from "./options";

/**
 * What data sources share inside the program's process: the configuration, read the way the
 * resources read it (stack config `squarecloud:*`, then the environment, then the defaults), one
 * client per configuration, and the memo of every read made so far.
 *
 * The client is never closed: undici unrefs idle keep-alive sockets, so they do not keep the
 * program's process alive once the program is done.
 */

export interface Session {
  /** Every read of this configuration, by function and arguments. */
  read<T>(name: string, args: object, task: (client: SquareCloudClient) => Promise<T>): Promise<T>;
}

const CONFIG_KEYS = {
  apiKey: "squarecloud:apiKey",
  platformUrl: "squarecloud:platformUrl",
  blobUrl: "squarecloud:blobUrl",
} as const;

const sessions = new Map<string, Session>();

/** Throws a ConfigError that says how to set a missing API key. */
export function sessionFor(options: DataSourceOptions = {}): Session {
  const config = resolveConfig(configValues(options));
  const key = accountKey(config);
  let session = sessions.get(key);
  if (!session) {
    const client = createClient(config);
    const memo = new Memo();
    session = { read: (name, args, task) => memo.get(memoKey(name, args), () => task(client)) };
    sessions.set(key, session);
  }
  return session;
}

/**
 * The raw runtime lookup, not `Config.get`: the latter is meant to warn when it reads a secret
 * (the warning is switched off in today's SDK, not removed), and the key is read here only to be
 * handed to the client, never shown.
 */
function configValues(options: DataSourceOptions): Record<string, string | undefined> {
  return Object.fromEntries(
    (Object.keys(CONFIG_KEYS) as (keyof typeof CONFIG_KEYS)[]).map((name) => [
      CONFIG_KEYS[name],
      // An empty option counts as unset, as everywhere else, so that stack config still applies.
      nonEmpty(options[name]) ?? pulumi.runtime.getConfig(CONFIG_KEYS[name]),
    ]),
  );
}

