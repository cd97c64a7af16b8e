import type * as pulumi from "@pulumi/pulumi";
import { type Clock, createClient, type SquareCloudClient } from "./client";
import { systemClock } from "./client/clock";
import { stableJson } from "./stable-json";
import { type ProviderConfig, resolveConfig, SETTINGS } from "./config";

/** Process-wide state of the provider process; nothing here is ever serialized into state. */

const CONFIG_KEYS = Object.values(SETTINGS).map((setting) => setting.key);

let configured: Record<string, string | undefined> = {};
let clock: Clock = systemClock;
let current: { config: ProviderConfig; clock: Clock; client: SquareCloudClient } | undefined;

/** The engine calls this once per serialized provider; every resource kind shares the result. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configured = Object.fromEntries(CONFIG_KEYS.map((key) => [key, req.config.get(key)]));
}

const ENV_NAMES = Object.values(SETTINGS).map((setting) => setting.env);

let resolved: { from: typeof configured; env: (string | undefined)[]; config: ProviderConfig } | undefined;

/**
 * Environment fallbacks are read now, not at configure time. Resolved again only when what it
 * reads has changed: a synced folder asks for it at each of its thousands of uploads.
 */
export function providerConfig(): ProviderConfig {
  const env = ENV_NAMES.map((name) => process.env[name]);
  if (resolved?.from !== configured || env.some((value, i) => value !== resolved?.env[i]))
    resolved = { from: configured, env, config: resolveConfig(configured) };
  return resolved.config;
}

/** One clock for every wait and reading of the time, so a test that replaces it waits no real time. */
export function providerClock(): Clock {
  return clock;
}

/** For tests: from now on the provider, its client included, reads time and waits through `replacement`. */
export function useClock(replacement: Clock): void {
  clock = replacement;
}

/** The client for the current configuration and clock, reused across calls for its keep-alive pools. */
export function apiClient(): SquareCloudClient {
  const config = providerConfig();
  if (!current || current.clock !== clock || (current.config !== config && !sameConfig(current.config, config))) {
    void current?.client.close();
    current = { config, clock, client: createClient(config, { clock }) };
  }
  return current.client;
}

/** Sources count too: the client's messages name them. */
function sameConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  return stableJson(a) === stableJson(b);
}
