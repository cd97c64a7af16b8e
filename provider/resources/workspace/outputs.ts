import { compact } from "../../lifecycle/compact";
import type { Workspace } from "../../schemas/platform";
import type { WorkspaceOutputs } from "../../schemas/workspace";

/** The outputs of a workspace: what the API reports, plus adoptId as the program gave it. */
export function outputsOf(workspace: Workspace, adoptId: string | undefined): WorkspaceOutputs {
  return compact({
    name: workspace.name,
    adoptId,
    owner: workspace.owner,
    createdAt: workspace.createdAt,
    members: workspace.members,
    applications: workspace.applications,
  });
}

/** The ids of the linked applications recorded in state. */
export function linkedIds(props: Pick<WorkspaceOutputs, "applications">): string[] {
  return (props.applications ?? []).map((app) => app.id);
}
