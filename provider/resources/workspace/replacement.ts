/**
 * The deleteBeforeReplace guard for every language. The provider never sees the option, only its
 * effect: a renamed workspace (or a member of it) deleted before any replacement was created.
 */
const awaitingReplacement = new Set<string>();

/** The diff of this workspace planned its replacement. */
export function replacementPlanned(workspaceId: string): void {
  awaitingReplacement.add(workspaceId);
}

/** A workspace was created: the replacements planned so far may exist now. */
export function workspaceCreated(): void {
  awaitingReplacement.clear();
}

/** Refuses a delete of the workspace (or of one of its members) that would come before its replacement. */
export function refuseDeleteBeforeReplace(workspaceId: string, what: string): void {
  if (!awaitingReplacement.has(workspaceId)) return;
  throw new Error(`${deleteBeforeReplaceRefused(what)} Nothing was deleted.`);
}

/** Why a Workspace refuses deleteBeforeReplace; the TypeScript SDK refuses the option with it too, before any plan. */
export function deleteBeforeReplaceRefused(what: string): string {
  return (
    `${what}: deleteBeforeReplace is not allowed on a Workspace: a replacement (a new name) would delete the old ` +
    `workspace, with every member, before the members can join the new one. Leave it unset.`
  );
}

/** A plugin the engine attaches to serves update after update in one process: each plans its own. */
export function forgetPlannedReplacements(): void {
  awaitingReplacement.clear();
}
