/** Lookups by id or by name, shared by getApp and getWorkspace. */

export interface Named {
  id: string;
  name: string;
}

/** Exactly one of id and name; says which is missing or that both were given. */
export function idOrName(what: string, args: { id?: string; name?: string }): { id: string } | { name: string } {
  if (args.id !== undefined && args.name !== undefined) throw new Error(`${what}: give either id or name, not both`);
  if (args.id !== undefined) return { id: args.id };
  if (args.name !== undefined) return { name: args.name };
  throw new Error(`${what}: give id or name`);
}

/**
 * The one item with this exact name. Names are not unique on the platform, so none or several
 * is an error that lists the candidates, by which the user picks an id instead.
 */
export function oneNamed<T extends Named>(items: readonly T[], name: string, what: string): T {
  const matches = items.filter((item) => item.name === name);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new Error(`${matches.length} ${what}s are named "${name}": ${list(matches)}; look it up by id instead`);
  }
  const known = items.length === 0 ? "there are none" : `the account has ${list(items)}`;
  throw new Error(`no ${what} is named "${name}"; ${known}`);
}

function list(items: readonly Named[]): string {
  return items.map((item) => `"${item.name}" (${item.id})`).join(", ");
}
