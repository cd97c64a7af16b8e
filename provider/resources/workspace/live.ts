import { apiClient } from "../../runtime";
import type { Workspace } from "../../schemas/platform";

/**
 * One GET /v2/workspaces/{id} answers for a workspace and all its members: a refresh reads the
 * Workspace and every WorkspaceMember of it in one provider process, and they share that one
 * request instead of making one each. Only reads use the shared answer; anything this process
 * changes in a workspace forgets it, and creates and updates always read afresh.
 */

/** Longer than the reads of one refresh take, short enough that a later command never sees it. */
const SHARED_FOR_MS = 30_000;

const shared = new Map<string, { at: number; workspace: Promise<Workspace> }>();

export function readWorkspace(workspaceId: string): Promise<Workspace> {
  const entry = shared.get(workspaceId);
  if (entry && Date.now() - entry.at < SHARED_FOR_MS) return entry.workspace;
  const workspace = apiClient().getWorkspace(workspaceId);
  const mine = { at: Date.now(), workspace };
  shared.set(workspaceId, mine);
  // A failed read is not shared: the next reader asks again.
  workspace.catch(() => {
    if (shared.get(workspaceId) === mine) shared.delete(workspaceId);
  });
  return workspace;
}

/** The workspace as it is now, for decisions that change it. */
export function readWorkspaceAfresh(workspaceId: string): Promise<Workspace> {
  forgetWorkspace(workspaceId);
  return apiClient().getWorkspace(workspaceId);
}

/** Called by every change this process makes to the workspace, its members or its links. */
export function forgetWorkspace(workspaceId: string): void {
  shared.delete(workspaceId);
}
