import * as pulumi from "@pulumi/pulumi";
import { resolveConfig, SETTINGS } from "../../../provider/config";
import { type Session, sessionOf } from "../../../provider/functions/session";
import type { DataSourceOptions } from "./options";

/**
 * The session of a call: the call's options, then the configuration as resources read it (stack
 * config, environment, defaults). Throws a ConfigError that says how to set a missing API key.
 */
export function sessionFor(options: DataSourceOptions = {}): Session {
  return sessionOf(resolveConfig(stackConfig(), options));
}

/** The raw lookup, not `Config.get`, which is meant to warn on reading a secret: the key only goes to the client. */
function stackConfig(): Record<string, string | undefined> {
  return Object.fromEntries(Object.values(SETTINGS).map(({ key }) => [key, pulumi.runtime.getConfig(key)]));
}
