import { apiClient } from "../../runtime";
import { database, type DatabaseInputs, type DatabaseOutputs } from "../../kinds/database";
import type { DatabaseDetails } from "../../client/payloads/platform";
import { readCertificate, resetPassword } from "./credentials";
import { patchFor } from "./outputs";
import { holdingsOf } from "../../lifecycle/holdings";

export interface Located {
  id: string;
  props: DatabaseOutputs;
}

/** The database adoptId names, refused when it is not of the type the inputs say. */
export async function inspect(inputs: DatabaseInputs, id: string): Promise<DatabaseDetails> {
  const found = await apiClient().getDatabase(id);
  if (found.type !== inputs.type) {
    throw new Error(`adopt database ${id}: it is a ${found.type} database, but the inputs say type "${inputs.type}"`);
  }
  return found;
}

/** Takes over a database no resource holds yet (a lost create's). */
export async function adopt(inputs: DatabaseInputs, id: string): Promise<Located> {
  return takeOver(inputs, id, await holdingsOf(database).adopt(id, () => inspect(inputs, id)));
}

/** The old password cannot be read: a new one only when passwordRotation asks for a reset. */
export async function takeOver(inputs: DatabaseInputs, id: string, existing: DatabaseDetails): Promise<Located> {
  const client = apiClient();
  const patch = patchFor({ name: existing.name, memory: existing.ram }, inputs);
  if (patch) await client.updateDatabase(id, patch);

  const props: DatabaseOutputs = { ...inputs, ...(await liveDetails(id, inputs.name, existing)) };
  if (inputs.passwordRotation !== undefined)
    Object.assign(props, await resetPassword(id, inputs.name, props.connectionUrl));
  return { id, props };
}

/** What the API tells besides the one-time password, for a database taken over or a state that lacks it. */
export async function liveDetails(
  id: string,
  name: string,
  known?: DatabaseDetails,
): Promise<Pick<DatabaseOutputs, "owner" | "cluster" | "createdAt" | "connectionUrl" | "certificate">> {
  const client = apiClient();
  const details = known ?? (await client.getDatabase(id));
  const listed = (await client.listDatabases()).find((db) => db.id === id);
  return {
    owner: details.owner,
    cluster: details.cluster,
    createdAt: details.created_at,
    connectionUrl: listed?.connection_url,
    certificate: await readCertificate(id, name),
  };
}
