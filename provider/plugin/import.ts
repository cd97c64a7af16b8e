import type { AnyKind } from "../kinds/declaration";
import type { Props } from "./wire";

// The engine reads an object by id alone, and the inputs answered become the program it writes.

/** Before any request, so nothing reaches the service or the state. */
export function refuseUnlessImportable(kind: AnyKind, id: string): void {
  const note = kind.import;
  if ("refused" in note)
    throw new Error(`${kind.name} ${id} cannot be imported: ${note.refused}. Instead, ${note.instead}.`);
}

/** The kind's inputs among the properties read, as the code `pulumi import` generates states them. */
export function importedInputs(kind: AnyKind, props: Props): Props {
  return Object.fromEntries(
    Object.keys(kind.inputs)
      .filter((name) => props[name] !== undefined)
      .map((name) => [name, props[name]]),
  );
}
