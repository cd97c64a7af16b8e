import * as pulumi from "@pulumi/pulumi";
import { resolveConfig, SETTINGS } from "../../../provider/config";
import { type Session, sessionOf } from "../../../provider/functions/session";
import type { DataSourceOptions } from "./options";

/**
 * The session of a data source call in the program's process: the configuration read the way the
 * resources read it (stack config `squarecloud:*`, then the environment, then the defaults), the
 * call's options first. Calls of one configuration share a session (provider/functions/session.ts).
 *
 * Throws a ConfigError that says how to set a missing API key.
 */
export function sessionFor(options: DataSourceOptions = {}): Session {
  return sessionOf(resolveConfig(stackConfig(), options));
}

/**
 * The raw runtime lookup, not `Config.get`: the latter is meant to warn when it reads a secret
 * (the warning is switched off in today's SDK, not removed), and the key is read here only to be
 * handed to the client, never shown.
 */
function stackConfig(): Record<string, string | undefined> {
  return Object.fromEntries(Object.values(SETTINGS).map(({ key }) => [key, pulumi.runtime.getConfig(key)]));
}
