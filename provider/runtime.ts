import type * as pulumi from "@pulumi/pulumi";
import { createClient, SquareCloudClient } from "./client";
import { stableJson } from "./stable-json";
import { ProviderConfig, resolveConfig, SETTINGS } from "./config";

/**
 * Process-wide state of the dynamic-provider process: the stack configuration the engine handed
 * to `configure`, and one client built from it. Nothing here is ever serialized into state.
 */

const CONFIG_KEYS = Object.values(SETTINGS).map((setting) => setting.key);

let configured: Record<string, string | undefined> = {};
let current: { config: ProviderConfig; client: SquareCloudClient } | undefined;

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

/** The client for the current configuration, reused across calls for its keep-alive pools. */
export function apiClient(): SquareCloudClient {
  const config = providerConfig();
  if (!current || !sameConfig(current.config, config)) {
    void current?.client.close();
    current = { config, client: createClient(config) };
  }
  return current.client;
}

/** Sources count too: the client's messages name them. */
function sameConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  return stableJson(a) === stableJson(b);
}
