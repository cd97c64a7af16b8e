import type { UpdateDatabaseInput } from "../../client";
import { compact } from "../../lifecycle/compact";
import { database, type DatabaseInputs, type DatabaseOutputs } from "../../kinds/database";

/** The PATCH that brings a database to the inputs, or undefined when nothing differs. */
export function patchFor(
  current: { name?: string; memory?: number },
  wanted: DatabaseInputs,
): UpdateDatabaseInput | undefined {
  const change: UpdateDatabaseInput = {};
  if (current.name !== wanted.name) change.name = wanted.name;
  if (current.memory !== wanted.memory) change.ram = wanted.memory;
  return Object.keys(change).length === 0 ? undefined : change;
}

/** What the API reported (the declared outputs) that an update in place does not change. */
export function reported(olds: DatabaseOutputs): Partial<DatabaseOutputs> {
  const outputs = Object.keys(database.outputs) as (keyof typeof database.outputs)[];
  return Object.fromEntries(outputs.map((output) => [output, olds[output]]));
}

/** The outputs without the secrets, for state written on a failure path (see failedButRecorded). */
export function withoutSecrets(props: DatabaseOutputs): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...props };
  for (const field of database.secretOutputs) delete copy[field];
  return compact(copy);
}
