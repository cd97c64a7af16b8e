import { z } from "zod";
import { success } from "../http/reply";
import type { Models } from "../core";
import type { Route } from "../http/router";
import type { ApiHandler } from "../http/server";
import { ID_PATTERN, WORKSPACE_NAME_PATTERN } from "../models/rules";
import type { AccountRecord } from "../state";
import { parseBody } from "./validate";

const id = z.string().regex(ID_PATTERN);
const createBody = z.object({ name: z.string().regex(WORKSPACE_NAME_PATTERN) });
const workspaceBody = z.object({ workspaceId: id });
// Format problems of code and group get their own codes in the model (INVALID_CODE, INVALID_GROUP).
const addMemberBody = z.object({ workspaceId: id, code: z.string().max(128), group: z.string().max(64) });
const changeGroupBody = z.object({ workspaceId: id, memberId: id, group: z.string().max(64) });
const removeMemberBody = z.object({ workspaceId: id, memberId: id });
const appLinkBody = z.object({ workspaceId: id, appId: id });

const codes = {
  workspaceId: "INVALID_ID",
  memberId: "INVALID_ID",
  appId: "INVALID_ID",
  code: "INVALID_CODE",
  group: "INVALID_GROUP",
} as const;

/** The workspace API names what it changes in the body, not the path: the body is checked against `schema`. */
function change<S extends z.ZodType>(
  schema: S,
  act: (body: z.infer<S>, account: AccountRecord, models: Models) => void,
): ApiHandler {
  return async ({ account, json }, models) => {
    act(parseBody(schema, await json(), codes), account, models);
    return success();
  };
}

export const workspaceRoutes: Route<ApiHandler>[] = [
  {
    method: "GET",
    template: "/v2/workspaces",
    handler: ({ account }, models) => success(models.workspaces.listFor(account).map((w) => models.workspaces.view(w))),
  },
  {
    method: "POST",
    template: "/v2/workspaces",
    handler: async ({ account, json }, models) => {
      const { name } = parseBody(createBody, await json(), { name: "INVALID_NAME" });
      return success(models.workspaces.creationView(models.workspaces.create(account, name)));
    },
  },
  {
    method: "DELETE",
    template: "/v2/workspaces",
    handler: change(workspaceBody, (body, account, models) => models.workspaces.delete(account, body.workspaceId)),
  },
  {
    method: "GET",
    template: "/v2/workspaces/:id",
    handler: ({ account, params }, models) =>
      success(models.workspaces.view(models.workspaces.visibleTo(account, params.id))),
  },
  {
    method: "DELETE",
    template: "/v2/workspaces/leave",
    handler: change(workspaceBody, (body, account, models) => models.workspaces.leave(account, body.workspaceId)),
  },
  {
    method: "GET",
    template: "/v2/workspaces/members/code",
    handler: ({ account }, models) => success({ code: models.workspaces.inviteCode(account) }),
  },
  {
    method: "POST",
    template: "/v2/workspaces/members",
    handler: change(addMemberBody, (body, account, models) =>
      models.workspaces.addMember(account, body.workspaceId, body.code, body.group),
    ),
  },
  {
    method: "PATCH",
    template: "/v2/workspaces/members",
    handler: change(changeGroupBody, (body, account, models) =>
      models.workspaces.changeGroup(account, body.workspaceId, body.memberId, body.group),
    ),
  },
  {
    method: "DELETE",
    template: "/v2/workspaces/members",
    handler: change(removeMemberBody, (body, account, models) =>
      models.workspaces.removeMember(account, body.workspaceId, body.memberId),
    ),
  },
  {
    method: "POST",
    template: "/v2/workspaces/applications",
    handler: change(appLinkBody, (body, account, models) =>
      models.workspaces.linkApp(account, body.workspaceId, models.apps.find(body.appId)),
    ),
  },
  {
    method: "DELETE",
    template: "/v2/workspaces/applications",
    handler: change(appLinkBody, (body, account, models) =>
      models.workspaces.unlinkApp(account, body.workspaceId, body.appId),
    ),
  },
];
