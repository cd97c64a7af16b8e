import { apiClient } from "../../runtime";
import type { DatabaseInputs, DatabaseOutputs } from "../../schemas/database";
import { readCertificate, resetPassword } from "./credentials";
import { patchFor } from "./outputs";

export interface Located {
  id: string;
  props: DatabaseOutputs;
}

/**
 * Takes over an existing database: brings name and memory to the inputs, fetches the certificate
 * from the credentials endpoint, and obtains a password only when passwordRotation asks for a
 * reset (the old password cannot be read).
 */
export async function adopt(inputs: DatabaseInputs, id: string): Promise<Located> {
  const client = apiClient();
  const existing = await client.getDatabase(id);
  if (existing.type !== inputs.type) {
    throw new Error(`adopt database ${id}: it is a ${existing.type} database, but the inputs say type "${inputs.type}"`);
  }
  const patch = patchFor({ name: existing.name, memory: existing.ram }, inputs);
  if (patch) await client.updateDatabase(id, patch);

  // The listing gives the connection URL (without a password we could read); GET does not.
  const listed = (await client.listDatabases()).find((db) => db.id === id);
  const props: DatabaseOutputs = {
    ...inputs,
    owner: existing.owner,
    cluster: existing.cluster,
    connectionUrl: listed?.connection_url,
    certificate: await readCertificate(id, inputs.name),
  };
  if (inputs.passwordRotation !== undefined) Object.assign(props, await resetPassword(id, inputs.name, props.connectionUrl));
  return { id, props };
}
