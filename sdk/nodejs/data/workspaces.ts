import { runFunction } from "../../../provider/functions/declaration";
import * as declared from "../../../provider/functions/workspaces";
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
  return runFunction(declared.getWorkspaces, {}, () => sessionFor(opts));
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
  return runFunction(declared.getWorkspace, args, () => sessionFor(opts));
});

export const getWorkspaceOutput = outputForm(getWorkspace);
