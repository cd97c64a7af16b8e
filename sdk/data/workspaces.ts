import type * as platform from "../../provider/client/payloads/platform";
import { ARGUMENTS, checkArguments } from "./arguments";
import { idOrName, oneNamed } from "./lookup";
import { outputForm, promiseForm } from "./forms";
import type { DataSourceOptions } from "./options";
import { sessionFor } from "./session";

/** A workspace as getWorkspace returns it, and each item of getWorkspaces. */
export interface GetWorkspaceResult {
  id: string;
  name: string;
  /** User id of the owner. */
  owner: string;
  /** ISO 8601. */
  createdAt: string;
  members: { id: string; name: string; group: string; joinedAt: string }[];
  applications: { id: string; name: string; ram: number; language: string }[];
}

export interface GetWorkspacesResult {
  workspaces: GetWorkspaceResult[];
}

/** Every workspace the account owns or belongs to. */
export const getWorkspaces = promiseForm(async function getWorkspaces(
  opts?: DataSourceOptions,
): Promise<GetWorkspacesResult> {
  return sessionFor(opts).read("getWorkspaces", {}, async (client) => ({
    workspaces: (await client.listWorkspaces()).map(workspaceView),
  }));
});

export const getWorkspacesOutput = outputForm(getWorkspaces);

export interface GetWorkspaceArgs {
  id?: string;
  /** Exact name; fails unless exactly one of the account's workspaces has it. */
  name?: string;
}

/** One workspace, by id or by name. */
export const getWorkspace = promiseForm(async function getWorkspace(
  args: GetWorkspaceArgs,
  opts?: DataSourceOptions,
): Promise<GetWorkspaceResult> {
  checkArguments("getWorkspace", { id: ARGUMENTS.optionalId, name: ARGUMENTS.optionalText }, args);
  const by = idOrName("getWorkspace", args);
  if ("name" in by) return oneNamed((await getWorkspaces(opts)).workspaces, by.name, "workspace");
  return sessionFor(opts).read("getWorkspace", by, async (client) => workspaceView(await client.getWorkspace(by.id)));
});

export const getWorkspaceOutput = outputForm(getWorkspace);

function workspaceView(workspace: platform.Workspace): GetWorkspaceResult {
  return {
    id: workspace.id,
    name: workspace.name,
    owner: workspace.owner,
    createdAt: workspace.createdAt,
    members: workspace.members.map(({ id, name, group, joinedAt }) => ({ id, name, group, joinedAt })),
    applications: workspace.applications.map(({ id, name, ram, lang }) => ({ id, name, ram, language: lang })),
  };
}
