import { compact } from "../../lifecycle/compact";
import type { Workspace } from "../../client/payloads/platform";
import { linkedApplication, type WorkspaceOutputs } from "../../kinds/workspace";

/** The outputs of a workspace: what the API reports, plus adoptId as the program gave it. */
export function outputsOf(workspace: Workspace, adoptId: string | undefined): WorkspaceOutputs {
  return compact({
    name: workspace.name,
    adoptId,
    owner: workspace.owner,
    createdAt: workspace.createdAt,
    members: workspace.members,
    applications: workspace.applications.map((app) => app.id),
    linkedApplications: workspace.applications.map(linkedApplication),
  });
}
