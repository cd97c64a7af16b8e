import type { ApiError } from "../../client";
import { CheckFailure, describe, isUnknown } from "../../check";
import { ResourceHandler, warn } from "../../handler";
import { apiClient } from "../../runtime";
import { checkKind } from "../../lifecycle/check";
import { database, DatabaseInputs, DatabaseOutputs, MIN_MEMORY_MB, SMALLEST_MIN_MEMORY_MB } from "../../kinds/database";
import { adopt, liveDetails } from "./adopt";
import { createDatabase } from "./create";
import { resetPassword } from "./credentials";
import { patchFor, reported } from "./outputs";
import { compact } from "../../lifecycle/compact";
import { confirmGone, Visibility } from "../../lifecycle/owner";
import { databaseHoldings } from "./registry";
import type { DatabaseDetails } from "../../client/payloads/platform";

/**
 * A managed mongo or redis database. Its password is returned by the API once (at creation or by
 * a reset), so every path that receives one returns it to the engine at once, and nothing after
 * that point can fail the operation.
 */

/** Another account's databases are DATABASE_NOT_FOUND too: see confirmGone. */
const DATABASE_VISIBILITY: Visibility = { notFound: "DATABASE_NOT_FOUND" };
/** Inputs whose change the API applies in place (PATCH, or a credentials reset). */
const UPDATABLE = database.updateOn;

export const databaseHandler: ResourceHandler = {
  check: checkKind(database, ({ olds, news, known }) => {
    const failures: CheckFailure[] = [];
    // The API needs the version to create a database but never reports it: only a database
    // already in state (imported) may be without one.
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
    // With the engine not known yet (preview of a computed type), memory below every engine's
    // minimum is wrong whatever it turns out to be; the engine's own minimum is checked at apply.
    if (isUnknown(news.type) && memory !== undefined && memory < SMALLEST_MIN_MEMORY_MB) {
      failures.push({
        property: "memory",
        reason: describe(`must be at least ${SMALLEST_MIN_MEMORY_MB} MB, the least any database engine takes`, memory),
      });
    }
    return failures;
  }),

  async diff(id, olds: DatabaseOutputs, news: DatabaseInputs) {
    databaseHoldings.noteHeld(id, `database "${olds.name}"`);
    const changed = (key: keyof DatabaseInputs) => isUnknown(news[key]) || olds[key] !== news[key];
    // A version only replaces what had one: an imported database (the API never reports its
    // version) records the first one given, in place; a version left out manages none.
    const versioned = olds.version !== undefined && news.version !== undefined;
    const replaces = database.replaceOn.filter((key) => (key === "version" ? versioned : true) && changed(key));
    const recordsVersion = olds.version === undefined && news.version !== undefined;
    databaseHoldings.refuseSelfAdoption(`database "${olds.name}"`, id, news.adoptId, replaces);
    return { changes: replaces.length > 0 || UPDATABLE.some(changed) || recordsVersion, replaces };
  },

  async create(inputs: DatabaseInputs) {
    if (!inputs.adoptId) {
      const created = await createDatabase(inputs);
      return { id: created.id, outs: compact(created.props) };
    }
    const adopted = await adopt(inputs, inputs.adoptId);
    return { id: adopted.id, outs: compact(adopted.props) };
  },

  async read(id, props: DatabaseOutputs) {
    databaseHoldings.noteHeld(id, `database "${props.name}"`);
    let details;
    try {
      details = await apiClient().getDatabase(id);
    } catch (err) {
      await confirmGone(err, DATABASE_VISIBILITY, `refresh database "${props.name}" (${id})`, props.owner);
      warn(`database "${props.name}" (${id}) no longer exists; it was deleted outside Pulumi and leaves the state`);
      return { id: "", props: {} };
    }
    // The API never returns the password again: it stays from state, and so do the URL and the
    // certificate unless state lacks them (a database adopted after a lost create).
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

  async update(id, olds: DatabaseOutputs, news: DatabaseInputs) {
    databaseHoldings.noteHeld(id, `database "${olds.name}"`);
    const patch = patchFor(olds, news);
    if (patch) await apiClient().updateDatabase(id, patch);

    // Inputs come from news alone (a removed input must leave state); the rest is what the API
    // reported before and a PATCH does not change, completed if a failed adoption left it short.
    const outs: DatabaseOutputs = { ...news, ...(await withLiveDetails(id, { ...reported(olds), name: news.name })) };
    if (news.passwordRotation !== undefined && news.passwordRotation !== olds.passwordRotation) {
      Object.assign(outs, await resetPassword(id, news.name, outs.connectionUrl));
    }
    return { outs: compact(outs) };
  },

  async delete(id, props: DatabaseOutputs) {
    if (databaseHoldings.passedToAdopter(id, `database "${props.name}"`)) return;
    try {
      await apiClient().deleteDatabase(id);
    } catch (err) {
      await confirmGone(err, DATABASE_VISIBILITY, `delete database "${props.name}" (${id})`, props.owner);
      // After a lost first attempt, the retry's NOT_FOUND is that attempt's delete.
      if (!(err as ApiError).afterLostAttempt) warn(`database "${props.name}" (${id}) was already gone`);
    }
  },
};

/**
 * The outputs, with owner, cluster, connection URL and certificate read from the API when one is
 * missing (a database adopted after a lost create); what state has wins.
 */
async function withLiveDetails<T extends Partial<DatabaseOutputs>>(id: string, props: T, details?: DatabaseDetails): Promise<T> {
  const complete = props.owner !== undefined && props.certificate !== undefined && props.connectionUrl !== undefined;
  if (complete) return props;
  return { ...(await liveDetails(id, props.name ?? id, details)), ...compact(props) };
}
