import { z } from "zod";
import type * as platform from "../client/payloads/platform";
import { WorkspaceMember } from "../client/payloads/platform";
import { field } from "../kinds/declaration";
import { LinkedApplication, linkedApplication } from "../kinds/workspace";
import { ARGUMENTS } from "./arguments";
import { declareFunction } from "./declaration";
import { idOrName, oneNamed } from "./lookup";

/** A workspace as getWorkspace returns it, and each item of getWorkspaces. */
const workspaceFields = {
  id: field(z.string(), "The workspace's id."),
  name: field(z.string(), "The workspace's name."),
  owner: field(z.string(), "User id of the owner."),
  createdAt: field(z.string(), "ISO 8601 time the workspace was created."),
  // The Workspace resource's members are these too: one object type in the package schema.
  members: field(z.array(WorkspaceMember), "Everyone in the workspace, the owner included.", {
    schemaType: "WorkspaceMemberInfo",
  }),
  applications: field(
    z.array(
      field(
        z.object({
          id: field(z.string(), "The application's id."),
          name: field(z.string(), "The application's name."),
          ram: field(z.number(), "The application's RAM, in MB."),
          language: field(z.string(), "The application's language or runtime."),
        }),
        "An application linked to a workspace (deprecated: `linkedApplications` holds WorkspaceApplication, the one type of a linked application).",
        { schemaType: "WorkspaceApplicationSummary" },
      ),
    ),
    "The applications linked to the workspace.",
    {
      deprecation:
        "Use `linkedApplications`, the Workspace resource's type; `applications` is removed in a later release.",
    },
  ),
  // Optional in the schema only, as new fields of a type must be; always set.
  linkedApplications: field(
    z.array(LinkedApplication).optional(),
    "The applications linked to the workspace, as the Workspace resource's `linkedApplications` holds them.",
    { schemaType: "WorkspaceApplication" },
  ),
};

export const getWorkspaces = declareFunction({
  name: "getWorkspaces",
  description: "Every workspace the account owns or belongs to.",
  args: {},
  result: {
    workspaces: field(
      z.array(
        field(z.object(workspaceFields), "A workspace with its members and applications.", {
          schemaType: "WorkspaceInfo",
        }),
      ),
      "The workspaces.",
    ),
  },
  read: async (_args, session) =>
    session().read("getWorkspaces", {}, async (client) => ({
      workspaces: (await client.listWorkspaces()).map(workspaceView),
    })),
});

export const getWorkspace = declareFunction({
  name: "getWorkspace",
  description: "One workspace, by id or by name.",
  args: {
    id: field(ARGUMENTS.optionalId, "The workspace's id."),
    name: field(ARGUMENTS.optionalText, "Exact name; fails unless exactly one of the account's workspaces has it."),
  },
  argsRequired: true,
  result: workspaceFields,
  read: async (args, session) => {
    const by = idOrName("getWorkspace", args);
    if ("name" in by) return oneNamed((await getWorkspaces.read({}, session)).workspaces, by.name, "workspace");
    return session().read("getWorkspace", by, async (client) => workspaceView(await client.getWorkspace(by.id)));
  },
});

function workspaceView(workspace: platform.Workspace) {
  return {
    id: workspace.id,
    name: workspace.name,
    owner: workspace.owner,
    createdAt: workspace.createdAt,
    members: workspace.members.map(({ id, name, group, joinedAt }) => ({ id, name, group, joinedAt })),
    applications: workspace.applications.map(({ id, name, ram, lang }) => ({ id, name, ram, language: lang })),
    linkedApplications: workspace.applications.map(linkedApplication),
  };
}
