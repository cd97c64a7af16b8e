import { ApiError } from "../../client";
import { apiClient } from "../../runtime";
import type { Workspace } from "../../client/payloads/platform";
import { forgetWorkspace, readWorkspaceAfresh } from "./live";

/**
 * Brings the workspace's application links to the program's list: links what is missing, unlinks
 * what it no longer lists. Left out (undefined), links are not managed. A lost answer to a link is
 * settled by the client (it reads the workspace, and sends the link again only if it is not
 * there); an unlink is retried by the client, and its "already gone" answer counts as done, which
 * after a lost first attempt is that attempt's doing. True when it changed the links, so
 * `workspace` no longer shows them as they are.
 */
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

/**
 * The code says the application is in a workspace already, and may mean another one: it counts as
 * done only when this workspace shows the link.
 */
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
