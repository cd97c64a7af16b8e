import { describe, isUnknown } from "../../field-check";
import { failedButRecorded } from "../../handler";
import { warn } from "../../channels";
import { kindHandler } from "../../lifecycle/kind-handler";
import { apiClient } from "../../runtime";
import type { Workspace } from "../../client/payloads/platform";
import { type StoredWorkspaceOutputs, workspace as workspaceKind, type WorkspaceInputs } from "../../kinds/workspace";
import { createWorkspace, inspectWorkspace } from "./create";
import { syncLinks } from "./links";
import { forgetWorkspace, readWorkspace, readWorkspaceAfresh } from "./live";
import { outputsOf } from "./outputs";
import { refuseDeleteBeforeReplace, replacementPlanned, workspaceCreated } from "./replacement";

// No rename: a new name replaces the workspace and drops every member and link, so the diff says so.

export const workspaceHandler = kindHandler<WorkspaceInputs, StoredWorkspaceOutputs, Workspace>({
  kind: workspaceKind,
  rules: ({ known }) => {
    const apps = known.applications as string[] | undefined;
    const twice = apps?.filter((app, i) => !isUnknown(app) && apps.indexOf(app) !== i);
    if (!twice || twice.length === 0) return [];
    return [{ property: "applications", reason: describe("must list each application once", [...new Set(twice)]) }];
  },

  what: (props) => `workspace "${props.name}"`,
  owner: (props) => props.owner,
  onReplace: (id, olds, news) => {
    replacementPlanned(id);
    warn(renameWarning(id, olds.name, news.name));
  },
  inspect: inspectWorkspace,

  async create(inputs, adopted) {
    const workspace = adopted ?? (await createWorkspace(inputs));
    workspaceCreated();
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

  async read(id, props) {
    const workspace = await readWorkspace(id);
    // An import reads the id alone: there is no name of before to compare.
    if (props.name !== undefined && workspace.name !== props.name) {
      warn(
        `workspace "${props.name}" (${id}) is now named "${workspace.name}" (changed outside Pulumi). There is no ` +
          `rename endpoint: if the program keeps the old name, the next pulumi up replaces the workspace; set name to ` +
          `"${workspace.name}" to keep it.`,
      );
    }
    return { id, props: outputsOf(workspace, props.adoptId) };
  },

  updateVerb: "change the application links of",
  async update(id, _olds, news) {
    // The read comes first: with a key that is neither owner nor member it is the first to fail.
    let current = await readWorkspaceAfresh(id);
    if (await syncLinks(current, news.applications)) current = await readWorkspaceAfresh(id);
    return outputsOf(current, news.adoptId);
  },

  async delete(id, props) {
    refuseDeleteBeforeReplace(id, `delete workspace "${props.name}" (${id})`);
    forgetWorkspace(id);
    await apiClient().deleteWorkspace(id);
  },
});

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
