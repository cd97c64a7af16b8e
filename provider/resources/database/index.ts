import { type CheckFailure, describe, isUnknown } from "../../field-check";
import { apiClient } from "../../runtime";
import { kindHandler } from "../../lifecycle/kind-handler";
import {
  database,
  type DatabaseInputs,
  type DatabaseOutputs,
  MIN_MEMORY_MB,
  SMALLEST_MIN_MEMORY_MB,
} from "../../kinds/database";
import { inspect, liveDetails, takeOver } from "./adopt";
import { createDatabase } from "./create";
import { resetPassword } from "./credentials";
import { patchFor, reported } from "./outputs";
import { compact } from "../../lifecycle/compact";
import type { DatabaseDetails } from "../../client/payloads/platform";

// The password is shown once: every path that receives one returns it at once, with nothing after to fail.

export const databaseHandler = kindHandler<DatabaseInputs, DatabaseOutputs, DatabaseDetails>({
  kind: database,
  rules: ({ olds, news, known }) => {
    const failures: CheckFailure[] = [];
    // The API never reports the version: only an imported database may be without one.
    if (Object.keys(olds).length === 0 && news.version === undefined) {
      failures.push({ property: "version", reason: "is required to create a database" });
    }
    const type = known.type as DatabaseInputs["type"] | undefined;
    const memory = known.memory as number | undefined;
    if (type !== undefined && memory !== undefined && memory < MIN_MEMORY_MB[type]) {
      failures.push({
        property: "memory",
        reason: describe(`must be at least ${MIN_MEMORY_MB[type]} MB for a ${type} database`, memory),
      });
    }
    // With the type unknown, memory below every engine's minimum is wrong whatever it turns out to be.
    if (isUnknown(news.type) && memory !== undefined && memory < SMALLEST_MIN_MEMORY_MB) {
      failures.push({
        property: "memory",
        reason: describe(`must be at least ${SMALLEST_MIN_MEMORY_MB} MB, the least any database engine takes`, memory),
      });
    }
    return failures;
  },

  what: (props) => `database "${props.name}"`,
  owner: (props) => props.owner,
  inspect,

  async create(inputs, adopted) {
    const located = adopted ? await takeOver(inputs, inputs.adoptId as string, adopted) : await createDatabase(inputs);
    return { id: located.id, outs: located.props };
  },

  async read(id, props) {
    const details = await apiClient().getDatabase(id);
    // The password stays from state; URL and certificate too unless state lacks them.
    const refreshed: DatabaseOutputs = {
      ...(await withLiveDetails(id, props, details)),
      name: details.name,
      memory: details.ram,
      cluster: details.cluster,
      createdAt: details.created_at,
      owner: details.owner,
    };
    if (details.type === "mongo" || details.type === "redis") refreshed.type = details.type;
    return { id, props: compact(refreshed) };
  },

  async update(id, olds, news) {
    const patch = patchFor(olds, news);
    if (patch) await apiClient().updateDatabase(id, patch);

    // Inputs from news alone (a removed input must leave state); the rest as reported before.
    const outs: DatabaseOutputs = { ...news, ...(await withLiveDetails(id, { ...reported(olds), name: news.name })) };
    if (news.passwordRotation !== undefined && news.passwordRotation !== olds.passwordRotation) {
      Object.assign(outs, await resetPassword(id, news.name, outs.connectionUrl));
    }
    return outs;
  },

  async delete(id) {
    await apiClient().deleteDatabase(id);
  },
});

/** Owner, cluster, URL and certificate read when one is missing (adopted after a lost create); state wins. */
async function withLiveDetails<T extends Partial<DatabaseOutputs>>(
  id: string,
  props: T,
  details?: DatabaseDetails,
): Promise<T> {
  const complete = props.owner !== undefined && props.certificate !== undefined && props.connectionUrl !== undefined;
  if (complete) return props;
  return { ...(await liveDetails(id, props.name ?? id, details)), ...compact(props) };
}
