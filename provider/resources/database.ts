import { ApiError, isNotFound } from "../client";
import type { CreatedDatabase, DatabaseSummary } from "../schemas/platform";
import { checkFields, describe, isUnknown } from "../check";
import { ResourceHandler, warn } from "../handler";
import { apiClient, providerConfig } from "../runtime";
import { databaseInputFields, DatabaseInputs, DatabaseOutputs, MIN_MEMORY_MB } from "../schemas/database";

/**
 * A managed mongo or redis database. Its password is returned by the API once (at creation or by
 * a reset), so every path that receives one returns it to the engine at once, and nothing after
 * that point can fail the operation.
 */

/** Inputs whose change the API applies in place (PATCH, or a credentials reset). */
const UPDATABLE = ["name", "memory", "passwordRotation"] as const;
/** Inputs the API cannot change: a new database replaces the old one. */
const REPLACING = ["type", "version"] as const;

export const databaseHandler: ResourceHandler = {
  async check(_olds, news) {
    const { failures, known } = checkFields(databaseInputFields, news);
    const type = known.type as DatabaseInputs["type"] | undefined;
    const memory = known.memory as number | undefined;
    if (type !== undefined && memory !== undefined && memory < MIN_MEMORY_MB[type]) {
      failures.push({
        property: "memory",
        reason: describe(`must be at least ${MIN_MEMORY_MB[type]} MB for a ${type} database`, memory),
      });
    }
    // Surfaces a missing API key at preview, with how to set it; makes no request.
    if (failures.length === 0) providerConfig();
    return { inputs: news, failures };
  },

  async diff(_id, olds: DatabaseOutputs, news: DatabaseInputs) {
    const changed = (key: keyof DatabaseInputs) => isUnknown(news[key]) || olds[key] !== news[key];
    const replaces = REPLACING.filter(changed);
    return { changes: replaces.length > 0 || UPDATABLE.some(changed), replaces };
  },

  async create(inputs: DatabaseInputs) {
    const outs = inputs.adoptId ? await adopt(inputs, inputs.adoptId) : await createOnce(inputs);
    return { id: outs.id, outs: compact(outs.props) };
  },

  async read(id, props: DatabaseOutputs) {
    let details;
    try {
      details = await apiClient().getDatabase(id);
    } catch (err) {
      if (!isNotFound(err, "DATABASE_NOT_FOUND")) throw err;
      warn(`database "${props.name}" (${id}) no longer exists; it was deleted outside Pulumi and leaves the state`);
      return { id: "", props: {} };
    }
    // The API never returns the password again, nor the certificate or URL here: keep them.
    const refreshed: DatabaseOutputs = { ...props, name: details.name, memory: details.ram, cluster: details.cluster };
    if (details.type === "mongo" || details.type === "redis") refreshed.type = details.type;
    return { id, props: compact(refreshed) };
  },

  async update(id, olds: DatabaseOutputs, news: DatabaseInputs) {
    const change: { name?: string; ram?: number } = {};
    if (news.name !== olds.name) change.name = news.name;
    if (news.memory !== olds.memory) change.ram = news.memory;
    if (change.name !== undefined || change.ram !== undefined) await apiClient().updateDatabase(id, change);

    // Inputs come from news alone (a removed input must leave state); the rest is what the API
    // reported before and a PATCH does not change.
    const outs: DatabaseOutputs = { ...news, ...pickReported(olds) };
    if (news.passwordRotation !== undefined && news.passwordRotation !== olds.passwordRotation) {
      // Last step on purpose: the new password goes straight into the returned outputs.
      Object.assign(outs, await resetPassword(id, news.name, olds.connectionUrl));
    }
    return { outs: compact(outs) };
  },

  async delete(id, props: DatabaseOutputs) {
    try {
      await apiClient().deleteDatabase(id);
    } catch (err) {
      if (!isNotFound(err, "DATABASE_NOT_FOUND")) throw err;
      warn(`database "${props.name}" (${id}) was already gone`);
    }
  },
};

interface Created {
  id: string;
  props: DatabaseOutputs;
}

/**
 * POST /v2/databases. When its outcome is unknown (response lost, timeout, 5xx), the account's
 * databases of that name listed before and after tell whether it was made: a new one is adopted,
 * none means the request never took effect and it is sent again. A same-named database that
 * existed before is never taken over.
 */
async function createOnce(inputs: DatabaseInputs, attemptsLeft = 3): Promise<Created> {
  const client = apiClient();
  const before = idsNamed(await client.listDatabases(), inputs.name);
  let created: CreatedDatabase;
  try {
    created = await client.createDatabase(inputs);
  } catch (err) {
    if (!(err instanceof ApiError) || !err.mayHaveCommitted) throw err;
    const appeared = idsNamed(await client.listDatabases(), inputs.name).filter((id) => !before.includes(id));
    if (appeared.length === 1) return adoptLostCreate(inputs, appeared[0], err);
    if (appeared.length > 1) {
      throw new Error(
        `create database "${inputs.name}": the response was lost (${err.code}) and ${appeared.length} new databases ` +
          `of that name appeared (${appeared.join(", ")}); adopt the right one with adoptId and delete the others`,
      );
    }
    if (attemptsLeft <= 1) throw err;
    return createOnce(inputs, attemptsLeft - 1);
  }
  return { id: created.id, props: fromCreation(inputs, created) };
}

function fromCreation(inputs: DatabaseInputs, created: CreatedDatabase): DatabaseOutputs {
  return {
    ...inputs,
    name: created.name,
    memory: created.memory,
    cpu: created.cpu,
    cluster: created.cluster,
    password: created.password,
    certificate: created.certificate,
    connectionUrl: created.connection_url,
  };
}

async function adoptLostCreate(inputs: DatabaseInputs, id: string, cause: ApiError): Promise<Created> {
  warn(
    `database "${inputs.name}" was created (${id}) but the response was lost (${cause.code}), so its password ` +
      `could not be captured. It is adopted, not created twice. To get a usable password, set passwordRotation ` +
      `on this resource to any value and run pulumi up: that resets the password and stores the new one as a secret.`,
  );
  return adopt({ ...inputs, passwordRotation: undefined }, id);
}

/**
 * Takes over an existing database: brings name and memory to the inputs, fetches the certificate
 * from the credentials endpoint, and obtains a password only when passwordRotation asks for a
 * reset (the old password cannot be read).
 */
async function adopt(inputs: DatabaseInputs, id: string): Promise<Created> {
  const client = apiClient();
  const existing = await client.getDatabase(id);
  if (existing.type !== inputs.type) {
    throw new Error(`adopt database ${id}: it is a ${existing.type} database, but the inputs say type "${inputs.type}"`);
  }
  const change: { name?: string; ram?: number } = {};
  if (existing.name !== inputs.name) change.name = inputs.name;
  if (existing.ram !== inputs.memory) change.ram = inputs.memory;
  if (change.name !== undefined || change.ram !== undefined) await client.updateDatabase(id, change);

  const props: DatabaseOutputs = { ...inputs, cluster: existing.cluster };
  try {
    props.certificate = await client.getDatabaseCertificate(id);
  } catch (err) {
    warn(`database "${inputs.name}" (${id}): the certificate could not be read (${(err as Error).message}); run pulumi refresh later`);
  }
  if (inputs.passwordRotation !== undefined) Object.assign(props, await resetPassword(id, inputs.name, undefined));
  return { id, props };
}

/** Resets the password and returns it with the connection URL rewritten to carry it. */
async function resetPassword(
  id: string,
  name: string,
  connectionUrl: string | undefined,
): Promise<Pick<DatabaseOutputs, "password" | "connectionUrl">> {
  const { password } = await apiClient().resetDatabaseCredentials(id, "password");
  return { password, connectionUrl: withPassword(connectionUrl, password, name) };
}

function withPassword(connectionUrl: string | undefined, password: string, name: string): string | undefined {
  if (connectionUrl === undefined) return undefined;
  try {
    const url = new URL(connectionUrl);
    url.password = encodeURIComponent(password);
    return url.toString();
  } catch {
    warn(`database "${name}": the stored connection URL could not be updated with the new password; it is dropped`);
    return undefined;
  }
}

function pickReported(olds: DatabaseOutputs): Partial<DatabaseOutputs> {
  const { cpu, cluster, password, certificate, connectionUrl } = olds;
  return { cpu, cluster, password, certificate, connectionUrl };
}

/** Drops undefined fields: the engine's property maps have no undefined. */
function compact<T extends object>(props: T): T {
  return Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined)) as T;
}

function idsNamed(databases: DatabaseSummary[], name: string): string[] {
  return databases.filter((db) => db.name === name).map((db) => db.id);
}
