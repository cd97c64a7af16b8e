import type { ApiError } from "../../client";
import { describe, isUnknown } from "../../check";
import { failedButRecorded, ResourceHandler, warn } from "../../handler";
import { confirmGone } from "../../lifecycle/owner";
import { apiClient } from "../../runtime";
import { checkKind } from "../../lifecycle/check";
import type { Workspace } from "../../client/payloads/platform";
import { StoredWorkspaceOutputs, workspace as workspaceKind, WorkspaceInputs } from "../../kinds/workspace";
import { adoptWorkspace, createWorkspace } from "./create";
import { syncLinks } from "./links";
import { forgetWorkspace, readWorkspace, readWorkspaceAfresh } from "./live";
import { linkedIds, outputsOf } from "./outputs";
import { WORKSPACE_VISIBILITY } from "./owner";
import { workspaceHoldings } from "./registry";

/**
 * A workspace and the applications linked to it. Its members are WorkspaceMember resources. The
 * API has no rename: a new name replaces the workspace, which drops every member and link, so
 * the diff says so in plain words before anything happens.
 */

export const workspaceHandler: ResourceHandler = {
  check: checkKind(workspaceKind, ({ known }) => {
    const apps = known.applications as string[] | undefined;
    const twice = apps?.filter((app, i) => !isUnknown(app) && apps.indexOf(app) !== i);
    if (!twice || twice.length === 0) return [];
    return [{ property: "applications", reason: describe("must list each application once", [...new Set(twice)]) }];
  }),

  async diff(id, olds: StoredWorkspaceOutputs, news: WorkspaceInputs) {
    workspaceHoldings.noteHeld(id, `workspace "${olds.name}"`);
    const renamed = isUnknown(news.name) || olds.name !== news.name;
    const replaces = renamed ? ["name"] : [];
    workspaceHoldings.refuseSelfAdoption(`workspace "${olds.name}"`, id, news.adoptId, replaces);
    if (renamed) warn(renameWarning(id, olds.name, news.name));
    const wanted = news.applications;
    const relinks = wanted !== undefined && (isUnknown(wanted) || !sameSet(linkedIds(olds), wanted));
    return { changes: renamed || relinks, replaces };
  },

  async create(inputs: WorkspaceInputs) {
    const workspace = inputs.adoptId ? await adoptWorkspace(inputs, inputs.adoptId) : await createWorkspace(inputs);
    let relinked: boolean;
    try {
      relinked = await syncLinks(workspace, inputs.applications);
    } catch (err) {
      // The workspace exists: keep it in state, so the next up links the rest instead of creating another.
      const message = `workspace "${inputs.name}" (${workspace.id}) was created but its applications could not all be linked: ${(err as Error).message}`;
      throw failedButRecorded(message, workspace.id, outputsOf(workspace, inputs.adoptId), inputs);
    }
    // The workspace was read just now; only a change of its links makes another read worth it.
    const current = relinked ? await readWorkspaceAfresh(workspace.id) : workspace;
    return { id: workspace.id, outs: outputsOf(current, inputs.adoptId) };
  },

  async read(id, props: StoredWorkspaceOutputs) {
    workspaceHoldings.noteHeld(id, `workspace "${props.name}"`);
    let workspace: Workspace;
    try {
      workspace = await readWorkspace(id);
    } catch (err) {
      await confirmGone(err, WORKSPACE_VISIBILITY, `refresh workspace "${props.name}" (${id})`, props.owner);
      warn(`workspace "${props.name}" (${id}) no longer exists; it was deleted outside Pulumi and leaves the state`);
      return { id: "", props: {} };
    }
    if (workspace.name !== props.name) {
      warn(
        `workspace "${props.name}" (${id}) is now named "${workspace.name}" (changed outside Pulumi). There is no ` +
          `rename endpoint: if the program keeps the old name, the next pulumi up replaces the workspace; set name to ` +
          `"${workspace.name}" to keep it.`,
      );
    }
    return { id, props: outputsOf(workspace, props.adoptId) };
  },

  async update(id, olds: StoredWorkspaceOutputs, news: WorkspaceInputs) {
    workspaceHoldings.noteHeld(id, `workspace "${olds.name}"`);
    let current: Workspace;
    try {
      // The read is inside: with a key that is neither owner nor member it is the first to fail.
      current = await readWorkspaceAfresh(id);
      if (await syncLinks(current, news.applications)) current = await readWorkspaceAfresh(id);
    } catch (err) {
      await confirmGone(err, WORKSPACE_VISIBILITY, `change the application links of workspace "${olds.name}" (${id})`, olds.owner);
      throw err;
    }
    return { outs: outputsOf(current, news.adoptId) };
  },

  async delete(id, props: StoredWorkspaceOutputs) {
    // Deleting it would drop the team another resource of the stack has just taken over.
    if (workspaceHoldings.passedToAdopter(id, `workspace "${props.name}"`)) return;
    forgetWorkspace(id);
    try {
      await apiClient().deleteWorkspace(id);
    } catch (err) {
      await confirmGone(err, WORKSPACE_VISIBILITY, `delete workspace "${props.name}" (${id})`, props.owner);
      // WORKSPACE_NOT_FOUND, which after a lost first attempt is that attempt's delete.
      if (!(err as ApiError).afterLostAttempt) warn(`workspace "${props.name}" (${id}) was already gone`);
    }
  },
};

function sameSet(a: string[], b: string[]): boolean {
  return a.length === new Set(b).size && b.every((item) => a.includes(item));
}

function renameWarning(id: string, from: string, to: string): string {
  const target = isUnknown(to) ? "a name not known yet" : `"${to}"`;
  return (
    `workspace "${from}" (${id}) is renamed to ${target}. There is no rename endpoint, so this REPLACES the workspace: ` +
    `a new one is created and the old one is deleted with every member and every application link. The applications ` +
    `the program lists are linked to the new one, but every member must join it again with a FRESH invite code ` +
    `(codes are single use): each invitee runs GET /v2/workspaces/members/code with their own API key, the owner ` +
    `stores it with \`pulumi config set --secret <that member's code key> <code>\` and runs pulumi up within 5 minutes. ` +
    `Until every member has joined the new workspace, pulumi up fails and the old workspace stays as it is.`
  );
}
