import { ApiError, Found } from "../../client";
import { oneAtATime } from "../../lifecycle/one-at-a-time";
import { apiClient } from "../../runtime";
import type { Workspace } from "../../client/payloads/platform";
import { workspace, type WorkspaceInputs } from "../../kinds/workspace";
import { LOOK_AGAIN_MS, lookAgain } from "../../lifecycle/look-again";
import { callerId } from "../../lifecycle/caller";
import { refuseOtherAccount } from "../../lifecycle/gone";
import { holdingsOf } from "../../lifecycle/holdings";

// A lost create is settled by listing the name before and after (docs/reliability.md, "Lost answers").

export async function createWorkspace(inputs: WorkspaceInputs): Promise<Workspace> {
  // Creates of one name run one at a time, so a reconciliation never takes a sibling's workspace.
  return oneAtATime(`workspace-name:${inputs.name}`, async () => {
    const client = apiClient();
    const caller = await callerId();
    const before = ownedNamed(await client.listWorkspaces(), caller, inputs.name);
    let id: string;
    try {
      const created = await client.createWorkspace(inputs.name, {
        read: (lost) => appearedSince(inputs.name, caller, before, lost),
      });
      id = created instanceof Found ? created.value : created.id;
    } catch (err) {
      if (!(err instanceof ApiError) || !err.nothingShown) throw err;
      throw new Error(
        `create workspace "${inputs.name}": the outcome is unknown (${err.message}) and no new workspace of that name ` +
          `has appeared. If one appears later, set adoptId to its id before running pulumi up again, so that it is not ` +
          `created twice.`,
      );
    }
    holdingsOf(workspace).noteCreated(id);
    return client.getWorkspace(id);
  });
}

/** The one new workspace of that name a lost create made, if any. */
async function appearedSince(
  name: string,
  caller: string,
  before: string[],
  cause: ApiError,
): Promise<string | undefined> {
  const appeared = await lookAgain(LOOK_AGAIN_MS.workspaceCreate, async () =>
    ownedNamed(await apiClient().listWorkspaces(), caller, name).filter(
      (id) => !before.includes(id) && !holdingsOf(workspace).isHeld(id),
    ),
  );
  if (appeared.length > 1) {
    throw new Error(
      `create workspace "${name}": there was no usable response (${cause.code}) and ${appeared.length} new workspaces ` +
        `of that name appeared (${appeared.join(", ")}); set adoptId to the right one and delete the others`,
    );
  }
  return appeared[0];
}

function ownedNamed(workspaces: Workspace[], owner: string, name: string): string[] {
  return workspaces.filter((w) => w.owner === owner && w.name === name).map((w) => w.id);
}

/** Owner and name must already match: only the owner can manage it, and there is no rename. */
export async function inspectWorkspace(inputs: WorkspaceInputs, id: string): Promise<Workspace> {
  const found = await apiClient().getWorkspace(id);
  refuseOtherAccount(`adopt workspace "${found.name}" (${id})`, found.owner, await callerId());
  if (found.name !== inputs.name) {
    throw new Error(
      `adopt workspace ${id}: it is named "${found.name}", but the inputs say "${inputs.name}"; a workspace ` +
        `cannot be renamed (there is no rename endpoint), so set name to "${found.name}"`,
    );
  }
  return found;
}
