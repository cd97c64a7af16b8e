import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "../../client";
import { failedButRecorded, warn } from "../../handler";
import { apiClient } from "../../runtime";
import type { DatabaseInputs, DatabaseOutputs } from "../../schemas/database";
import type { CreatedDatabase } from "../../schemas/platform";
import { adopt, Located } from "./adopt";
import { idsNamed, withoutSecrets } from "./outputs";

/**
 * POST /v2/databases, reconciled. When its outcome is unknown (response lost, timeout, 5xx), the
 * account's databases of that name, listed before and after, decide: a new one is adopted, never
 * a same-named one that existed before. Only a 503 (the service refused the request) is sent
 * again when nothing appeared; after a timeout or a dropped connection the database may still be
 * on its way, so nothing is sent twice and the error says how to adopt it.
 */

/** Listings after an unknown outcome: at once, then after these waits (ms). */
const RECHECK_DELAYS_MS = [1_000, 2_000, 4_000];
const CREATE_ATTEMPTS = 3;

export async function createDatabase(inputs: DatabaseInputs): Promise<Located> {
  // Creates of one name run one at a time in this process, so a reconciliation never mistakes a
  // sibling resource's new database of the same name for its own.
  return oneAtATime(inputs.name, () => createReconciled(inputs, CREATE_ATTEMPTS));
}

async function createReconciled(inputs: DatabaseInputs, attemptsLeft: number): Promise<Located> {
  const client = apiClient();
  const account = await client.me();
  const before = idsNamed(account.databases, inputs.name);
  let created: CreatedDatabase;
  try {
    created = await client.createDatabase(inputs);
  } catch (err) {
    if (!(err instanceof ApiError) || !err.mayHaveCommitted) throw err;
    const refused = err.status === 503;
    const appeared = await appearedSince(inputs.name, before, err, refused ? [] : RECHECK_DELAYS_MS);
    if (appeared.length === 1) return adoptLostCreate(inputs, appeared[0], err);
    if (appeared.length > 1) {
      throw new Error(
        `create database "${inputs.name}": the response was lost (${err.code}) and ${appeared.length} new databases ` +
          `of that name appeared (${appeared.join(", ")}); adopt the right one with adoptId and delete the others`,
      );
    }
    if (refused && attemptsLeft > 1) return createReconciled(inputs, attemptsLeft - 1);
    throw new Error(
      `create database "${inputs.name}": the outcome is unknown (${err.message}) and no new database of that ` +
        `name has appeared. If one appears in the account later, set adoptId to its id before running pulumi up ` +
        `again, so that it is not created twice.`,
    );
  }
  return { id: created.id, props: fromCreation(inputs, created, account.user.id) };
}

function fromCreation(inputs: DatabaseInputs, created: CreatedDatabase, owner: string): DatabaseOutputs {
  return {
    ...inputs,
    name: created.name ?? inputs.name,
    memory: created.memory ?? inputs.memory,
    owner,
    cpu: created.cpu,
    cluster: created.cluster,
    password: created.password,
    certificate: created.certificate,
    connectionUrl: created.connection_url,
  };
}

/** Ids of databases of that name that were not there before, listed after each wait. */
async function appearedSince(name: string, before: string[], cause: ApiError, delaysMs: number[]): Promise<string[]> {
  for (const delay of [0, ...delaysMs]) {
    await sleep(delay);
    let listed;
    try {
      listed = await apiClient().listDatabases();
    } catch (err) {
      throw new Error(
        `create database "${name}": the response was lost (${cause.code}) and the account could not be read to ` +
          `find out whether it was created (${(err as Error).message}). If a new database named "${name}" exists, ` +
          `set adoptId to its id before running pulumi up again.`,
      );
    }
    const appeared = idsNamed(listed, name).filter((id) => !before.includes(id));
    if (appeared.length > 0) return appeared;
  }
  return [];
}

async function adoptLostCreate(inputs: DatabaseInputs, id: string, cause: ApiError): Promise<Located> {
  warn(
    `database "${inputs.name}" was created (${id}) but the response was lost (${cause.code}), so its password ` +
      `could not be captured. It is adopted, not created twice. To get a usable password, set passwordRotation ` +
      `on this resource to any value and run pulumi up: that resets the password and stores the new one as a secret.`,
  );
  try {
    return await adopt({ ...inputs, passwordRotation: undefined }, id);
  } catch (err) {
    // The database exists: keep it in state, so the next up finishes the adoption instead of
    // creating another one.
    const recorded = { ...withoutSecrets({ ...inputs, passwordRotation: undefined }), __provider: providerOf(inputs) };
    throw failedButRecorded(`database "${inputs.name}" (${id}) was created but could not be adopted yet: ${(err as Error).message}`, id, recorded);
  }
}

function providerOf(inputs: DatabaseInputs): unknown {
  return (inputs as Record<string, unknown>).__provider;
}

const queues = new Map<string, Promise<unknown>>();

function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}
