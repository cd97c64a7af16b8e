import type * as pulumi from "@pulumi/pulumi";
import { type Clock, createClient, type SquareCloudClient } from "./client";
import { systemClock } from "./client/clock";
import { stableJson } from "./stable-json";
import { type ProviderConfig, resolveConfig, SETTINGS } from "./config";

/**
 * Process-wide state of the dynamic-provider process: the stack configuration the engine handed
 * to `configure`, the clock, and one client built from both. Nothing here is ever serialized into
 * state.
 */

const CONFIG_KEYS = Object.values(SETTINGS).map((setting) => setting.key);

let configured: Record<string, string | undefined> = {};
let clock: Clock = systemClock;
let current: { config: ProviderConfig; clock: Clock; client: SquareCloudClient } | undefined;

/** The engine calls this once per serialized provider; every resource kind shares the result. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configured = Object.fromEntries(CONFIG_KEYS.map((key) => [key, req.config.get(key)]));
}

/**
 * The resolved configuration; environment fallbacks are read now, not at configure time. Throws
 * a ConfigError that says how to set a missing API key.
 */
export function providerConfig(): ProviderConfig {
  return resolveConfig(configured);
}

/**
 * Time as the provider reads it and waits on it: the client's retries and pacing, and the
 * resources' own waits (looking again after a lost answer, a lost upload's wait) and readings of
 * the time. One clock for all, so a test that replaces it runs every wait in no real time.
 */
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
  if (!current || current.clock !== clock || !sameConfig(current.config, config)) {
    void current?.client.close();
    current = { config, clock, client: createClient(config, { clock }) };
  }
  return current.client;
}

/** Sources count too: the client's messages name them. */
function sameConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  return stableJson(a) === stableJson(b);
}
