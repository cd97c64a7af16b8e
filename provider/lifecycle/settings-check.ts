import type { CheckFailure } from "../field-check";
import { ApiError, type SquareCloudClient } from "../client";
import { ConfigError, SETTINGS } from "../config";
import { apiClient, providerConfig } from "../runtime";
import { callerId } from "./caller";
import { entryOf } from "../map-entry";

/**
 * So a preview fails on a refused key or unreachable URL, not the `up` after the merge. One kept
 * read per API and client; returned as a check failure, which the engine prints without a stack.
 */

export type Api = "platform" | "blob";

const outcomes = new WeakMap<SquareCloudClient, Map<Api, Promise<void>>>();

const SKIP = SETTINGS.skipCredentialsCheck;
const OFFLINE_STEPS = `To preview without reaching the service, set ${SKIP.key} to true (or ${SKIP.env}=true)`;

export async function settingsFailures(apis: readonly Api[]): Promise<CheckFailure[]> {
  try {
    if (!providerConfig().skipCredentialsCheck) await Promise.all(apis.map(reached));
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [{ property: "", reason: error.message }];
    // No answer at all: the settings may be right and the network away.
    if (error instanceof ApiError)
      return [
        { property: "", reason: error.status === undefined ? `${error.message}. ${OFFLINE_STEPS}` : error.message },
      ];
    throw error;
  }
}

function reached(api: Api): Promise<void> {
  const client = apiClient();
  const checks = entryOf(outcomes, client, () => new Map<Api, Promise<void>>());
  return entryOf(checks, api, () =>
    api === "platform" ? callerId().then(() => undefined) : client.accountStats().then(() => undefined),
  );
}
