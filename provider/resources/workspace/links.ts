import { ApiError } from "../../client";
import { apiClient } from "../../runtime";
import type { Workspace } from "../../client/payloads/platform";
import { forgetWorkspace, readWorkspaceAfresh } from "./live";

/** Left out, links are not managed. True when it changed them, so `workspace` is out of date. */
export async function syncLinks(workspace: Workspace, wanted: string[] | undefined): Promise<boolean> {
  if (wanted === undefined) return false;
  const linked = workspace.applications.map((app) => app.id);
  const missing = wanted.filter((appId) => !linked.includes(appId));
  const extra = linked.filter((appId) => !wanted.includes(appId));
  for (const appId of missing) await link(workspace, appId);
  for (const appId of extra) await unlink(workspace, appId);
  if (missing.length + extra.length === 0) return false;
  forgetWorkspace(workspace.id);
  return true;
}

async function link(workspace: Workspace, appId: string): Promise<void> {
  try {
    await apiClient().linkApplication({ workspaceId: workspace.id, appId });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "APP_ALREADY_IN_WORKSPACE") return confirmLinkedHere(workspace, appId);
    if (err.code === "APP_NOT_FOUND") {
      throw new Error(
        `link application ${appId} to workspace "${workspace.name}" (${workspace.id}): no such application among ` +
          `the account's own (APP_NOT_FOUND); only applications the workspace's owner owns can be linked. Check the id ` +
          `in the workspace's applications list.`,
      );
    }
    throw err;
  }
}

/** "Already in a workspace" may mean another one: done only when this workspace shows the link. */
async function confirmLinkedHere(workspace: Workspace, appId: string): Promise<void> {
  const now = await readWorkspaceAfresh(workspace.id);
  if (now.applications.some((app) => app.id === appId)) return;
  throw new Error(
    `link application ${appId} to workspace "${workspace.name}" (${workspace.id}): the API answers that it is in a ` +
      `workspace already (APP_ALREADY_IN_WORKSPACE), but it is not linked to this one. Unlink it from the other ` +
      `workspace, or remove it from this workspace's applications list.`,
  );
}

async function unlink(workspace: Workspace, appId: string): Promise<void> {
  try {
    await apiClient().unlinkApplication({ workspaceId: workspace.id, appId });
  } catch (err) {
    if (err instanceof ApiError && err.code === "APP_NOT_FOUND") return;
    throw err;
  }
}
