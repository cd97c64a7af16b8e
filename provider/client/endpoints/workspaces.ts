import type { HttpClient } from "../http";
import * as platform from "../payloads/platform";
import type { Settle, Settled } from "../retry";
import { read, readById } from "./reads";

/** /v2/workspaces of the platform API: workspaces, their members and their linked applications. */
export function workspaceEndpoints(api: HttpClient) {
  const getWorkspace = readById(api, "get workspace", "/v2/workspaces/{workspaceId}", platform.Workspace);

  return {
    listWorkspaces: read(api, "list workspaces", "/v2/workspaces", platform.WorkspaceList),

    getWorkspace,

    /** Sent again after a lost answer only as `settle` allows. */
    createWorkspace<F = never>(name: string, settle?: Settle<F>): Promise<Settled<platform.CreatedWorkspace, F>> {
      return api.request(
        {
          operation: "create workspace",
          resource: name,
          method: "POST",
          path: "/v2/workspaces",
          json: { name },
          schema: platform.CreatedWorkspace,
        },
        settle,
      );
    },

    /** Owner only; linked applications are kept. */
    deleteWorkspace(workspaceId: string): Promise<void> {
      return api.request({
        operation: "delete workspace",
        resource: workspaceId,
        method: "DELETE",
        path: "/v2/workspaces",
        json: { workspaceId },
      });
    },

    /** The caller's own invite code: 32 hex characters, single use, valid 5 minutes. A secret. */
    async getInviteCode(): Promise<string> {
      const { code } = await api.request({
        operation: "get invite code",
        method: "GET",
        path: "/v2/workspaces/members/code",
        schema: platform.InviteCode,
      });
      return code;
    },

    /** Consumes the invitee's code. Only the caller can tell who joined, so it settles a lost answer. */
    addWorkspaceMember<F = never>(
      input: { workspaceId: string; code: string; group: platform.WorkspaceGroup },
      settle?: Settle<F>,
    ): Promise<Settled<undefined, F>> {
      return api.request(
        {
          operation: "add workspace member",
          resource: input.workspaceId,
          method: "POST",
          path: "/v2/workspaces/members",
          json: { workspaceId: input.workspaceId, code: input.code, group: input.group },
        },
        settle,
      );
    },

    updateWorkspaceMember(input: {
      workspaceId: string;
      memberId: string;
      group: platform.WorkspaceGroup;
    }): Promise<void> {
      return api.request({
        operation: "update workspace member",
        resource: `${input.workspaceId}/${input.memberId}`,
        method: "PATCH",
        path: "/v2/workspaces/members",
        json: { workspaceId: input.workspaceId, memberId: input.memberId, group: input.group },
      });
    },

    removeWorkspaceMember(input: { workspaceId: string; memberId: string }): Promise<void> {
      return api.request({
        operation: "remove workspace member",
        resource: `${input.workspaceId}/${input.memberId}`,
        method: "DELETE",
        path: "/v2/workspaces/members",
        json: { workspaceId: input.workspaceId, memberId: input.memberId },
      });
    },

    /** Owner only. A lost answer is settled by reading the workspace; a link exists once, so resending is safe. */
    async linkApplication(input: { workspaceId: string; appId: string }): Promise<void> {
      await api.request(
        {
          operation: "link application to workspace",
          resource: `${input.workspaceId}/${input.appId}`,
          method: "POST",
          path: "/v2/workspaces/applications",
          json: { workspaceId: input.workspaceId, appId: input.appId },
        },
        {
          conclusive: true,
          read: async () => {
            const workspace = await getWorkspace(input.workspaceId);
            return workspace.applications.some((app) => app.id === input.appId) || undefined;
          },
        },
      );
    },

    unlinkApplication(input: { workspaceId: string; appId: string }): Promise<void> {
      return api.request({
        operation: "unlink application from workspace",
        resource: `${input.workspaceId}/${input.appId}`,
        method: "DELETE",
        path: "/v2/workspaces/applications",
        json: { workspaceId: input.workspaceId, appId: input.appId },
      });
    },
  };
}
