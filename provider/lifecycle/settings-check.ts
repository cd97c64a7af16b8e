import type { CheckFailure } from "../field-check";
import { ApiError, type SquareCloudClient } from "../client";
import { ConfigError, SETTINGS } from "../config";
import { apiClient, providerConfig } from "../runtime";
import { callerId } from "./caller";
import { entryOf } from "../map-entry";

/**
 * The settings a resource needs, checked by its `check` once its inputs pass, so that `pulumi
 * preview` (a pull request's, say) fails on a missing or refused key or an unreachable URL instead
 * of `up` after the merge. One read-only request per API and configuration in the provider process:
 * GET /v2/users/me through callerId, whose answer the creates that need the caller reuse, and for
 * blob resources the blob account's stats. The outcome is kept, a failure too, so the checks of
 * the other resources report it without asking again.
 *
 * A failure is returned as a check failure: the engine prints it once, with the resource, and
 * without the stack trace it prints for an error thrown from `check`.
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
