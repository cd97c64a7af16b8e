/**
 * The deleteBeforeReplace guard, for every language: a provider never sees the resource options,
 * but sees their effect. Without the option, a renamed workspace's replacement is created before
 * anything of the old one is deleted; with it, the old workspace's members and then the workspace
 * are deleted first, before anyone could join the new one. So a delete that comes while a
 * replacement is planned and none has been created yet is refused, before any request.
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
  throw new Error(
    `${what}: deleteBeforeReplace is not allowed on a Workspace: a replacement (a new name) would delete the old ` +
      `workspace, with every member, before the members can join the new one. Leave it unset. Nothing was deleted.`,
  );
}
