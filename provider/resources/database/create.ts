import { ApiError, Found } from "../../client";
import { failedButRecorded } from "../../handler";
import { warn } from "../../channels";
import { apiClient } from "../../runtime";
import { database, type DatabaseInputs, type DatabaseOutputs } from "../../kinds/database";
import type { CreatedDatabase, DatabaseSummary } from "../../client/payloads/platform";
import { adopt, type Located } from "./adopt";
import { withoutSecrets } from "./outputs";
import { holdingsOf } from "../../lifecycle/holdings";
import { oneAtATime } from "../../lifecycle/one-at-a-time";
import { LOOK_AGAIN_MS, lookAgain } from "../../lifecycle/look-again";

// A lost create is settled by listing the name before and after (docs/reliability.md, "Lost answers").

export async function createDatabase(inputs: DatabaseInputs): Promise<Located> {
  // One at a time per name, so a reconciliation never takes a sibling's new database for its own.
  return oneAtATime(inputs.name, async () => {
    const account = await apiClient().me();
    const before = idsNamed(account.databases, inputs.name);
    const created = await createReconciled(inputs, before, account.user.id);
    holdingsOf(database).noteCreated(created.id);
    return created;
  });
}

async function createReconciled(inputs: DatabaseInputs, before: string[], owner: string): Promise<Located> {
  let looked = false;
  let created: CreatedDatabase | Found<{ id: string; cause: ApiError }>;
  try {
    // check refuses a new database without a version (only an imported one may lack it).
    created = await apiClient().createDatabase(
      { ...inputs, version: inputs.version as string },
      {
        read: async (cause) => {
          looked = true;
          const id = await appearedSince(inputs.name, before, cause);
          return id === undefined ? undefined : { id, cause };
        },
      },
    );
  } catch (err) {
    if (!(err instanceof ApiError) || !err.nothingShown) throw err;
    throw new Error(
      `create database "${inputs.name}": the outcome is unknown (${err.message}) and no new database of that ` +
        `name has appeared. If one appears in the account later, set adoptId to its id before running pulumi up ` +
        `again, so that it is not created twice.`,
    );
  }
  if (created instanceof Found) return adoptLostCreate(inputs, created.value.id, created.value.cause);
  if (looked) await warnOfStrays(inputs.name, before, created.id);
  return { id: created.id, props: fromCreation(inputs, created, owner) };
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

/**
 * The one new id of that name, neither there before nor held by another resource, after each
 * wait; several fail, naming them.
 */
async function appearedSince(name: string, before: string[], cause: ApiError): Promise<string | undefined> {
  const appeared = await lookAgain(LOOK_AGAIN_MS.databaseCreate, async () =>
    newNamed(await listAfter(name, cause), name, before),
  );
  if (appeared.length > 1) {
    throw new Error(
      `create database "${name}": there was no usable response (${cause.code}) and ${appeared.length} new ` +
        `databases of that name appeared (${appeared.join(", ")}); adopt the right one with adoptId and delete the others`,
    );
  }
  return appeared[0];
}

async function listAfter(name: string, cause: ApiError): Promise<DatabaseSummary[]> {
  try {
    return await apiClient().listDatabases();
  } catch (err) {
    throw new Error(
      `create database "${name}": there was no usable response (${cause.code}) and the account could not be read ` +
        `to find out whether it was created (${(err as Error).message}). If a new database named "${name}" exists, ` +
        `set adoptId to its id before running pulumi up again.`,
    );
  }
}

/** A create sent again after a 503: a refusal that did commit after all would show up here. */
async function warnOfStrays(name: string, before: string[], createdId: string): Promise<void> {
  const strays = newNamed(await apiClient().listDatabases(), name, [...before, createdId]);
  if (strays.length > 0) {
    warn(
      `database "${name}" was created (${createdId}) after a refused attempt, and ${strays.join(", ")} of the same ` +
        `name appeared too; if the refused attempt made it, delete it to free its memory`,
    );
  }
}

async function adoptLostCreate(inputs: DatabaseInputs, id: string, cause: ApiError): Promise<Located> {
  let adopted: Located;
  try {
    adopted = await adopt({ ...inputs, passwordRotation: undefined }, id);
  } catch (err) {
    // Kept in state, so the next up finishes the adoption instead of creating another one.
    const account = await apiClient()
      .me()
      .catch(() => undefined);
    const recorded = withoutSecrets({ ...inputs, passwordRotation: undefined, owner: account?.user.id });
    throw failedButRecorded(
      `database "${inputs.name}" (${id}) was created but could not be adopted yet: ${(err as Error).message}`,
      id,
      recorded,
      inputs,
    );
  }
  const recovery =
    inputs.passwordRotation !== undefined
      ? "The next pulumi up resets it (passwordRotation is set) and stores the new one as a secret."
      : "To get a usable password, set passwordRotation on this resource to any value and run pulumi up: that resets the password and stores the new one as a secret.";
  warn(
    `database "${inputs.name}" was created (${id}) but there was no usable response (${cause.code}), so its ` +
      `password could not be captured. It is adopted, not created twice. ${recovery}`,
  );
  return adopted;
}

function newNamed(databases: DatabaseSummary[], name: string, before: string[]): string[] {
  return databases
    .filter((db) => db.name === name && !before.includes(db.id) && !holdingsOf(database).isHeld(db.id))
    .map((db) => db.id);
}

function idsNamed(databases: DatabaseSummary[], name: string): string[] {
  return databases.filter((db) => db.name === name).map((db) => db.id);
}
