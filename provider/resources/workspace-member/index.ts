import { ApiError, isNotFound } from "../../client";
import type { ResourceHandler } from "../../handler";
import { warn } from "../../channels";
import { compact } from "../../lifecycle/compact";
import { confirmGone } from "../../lifecycle/gone";
import { apiClient } from "../../runtime";
import { checkKind } from "../../lifecycle/kind-check";
import type { Workspace } from "../../client/payloads/platform";
import { workspaceMember, type WorkspaceMemberInputs, type WorkspaceMemberOutputs } from "../../kinds/workspace-member";
import { WORKSPACE_VISIBILITY } from "../../kinds/workspace";
import { declaredDiff } from "../../lifecycle/diff";
import { forgetWorkspace, readWorkspace } from "../workspace/live";
import { refuseDeleteBeforeReplace } from "../workspace/replacement";
import { addMember, type Membership } from "./add";
import { describeWho, freshCodeSteps } from "./guidance";

// The invite code is spent once used: a changed or removed code changes nothing and makes no request.

export const workspaceMemberHandler: ResourceHandler = {
  check: checkKind(workspaceMember, ({ olds, news }) => {
    // A member not in state yet can only be added with a code, or taken over by userId; once
    // they joined, both may go.
    const isNew = Object.keys(olds).length === 0;
    if (!isNew || news.inviteCode !== undefined || news.userId !== undefined) return [];
    return [
      {
        property: "inviteCode",
        reason: "is required to add a new member (or set userId to take over someone who is a member already)",
      },
    ];
  }),

  async diff(_id, olds: WorkspaceMemberOutputs, news: WorkspaceMemberInputs) {
    return declaredDiff(workspaceMember, olds, news);
  },

  async create(inputs: WorkspaceMemberInputs) {
    const joined = await addMember(inputs);
    return { id: memberResourceId(inputs.workspaceId, joined.member.id), outs: outputsOf(joined) };
  },

  async read(id, stored: WorkspaceMemberOutputs) {
    // An import reads the id alone: it names the workspace and the user.
    const props = { ...membershipOf(id), ...stored };
    let workspace: Workspace;
    try {
      workspace = await readWorkspace(props.workspaceId);
    } catch (err) {
      await confirmGone(
        err,
        WORKSPACE_VISIBILITY,
        `refresh ${describeMember(props)} of workspace ${props.workspaceId}`,
        props.workspaceOwner,
      );
      warn(`${describeMember(props)}: the workspace no longer exists; the membership leaves the state`);
      return { id: "", props: {} };
    }
    const member = workspace.members.find((m) => m.id === props.userId);
    if (!member) {
      warn(
        `${describeMember(props)} is no longer a member of workspace "${workspace.name}" (${workspace.id}): they left ` +
          `or were removed outside Pulumi, and the membership leaves the state. The next pulumi up adds them again only ` +
          `with a fresh invite code, unless they are a member again by then. ${freshCodeSteps(describeWho(props.userId))}`,
      );
      return { id: "", props: {} };
    }
    return { id, props: outputsOf({ workspace, member }) };
  },

  async update(_id, olds: WorkspaceMemberOutputs, news: WorkspaceMemberInputs) {
    const what = `${describeMember(olds)} of workspace ${olds.workspaceId}`;
    try {
      await apiClient().updateWorkspaceMember({
        workspaceId: olds.workspaceId,
        memberId: olds.userId,
        group: news.group,
      });
    } catch (err) {
      if (isNotFound(err, "MEMBER_NOT_FOUND")) {
        throw new Error(
          `change the group of ${what}: they are no longer a member (removed outside Pulumi). Run pulumi refresh, then ` +
            `pulumi up. ${freshCodeSteps(describeWho(olds.userId))}`,
        );
      }
      await confirmGone(err, WORKSPACE_VISIBILITY, `change the group of ${what}`, olds.workspaceOwner);
      throw err;
    } finally {
      forgetWorkspace(olds.workspaceId);
    }
    return { outs: compact({ ...olds, group: news.group }) };
  },

  async delete(_id, props: WorkspaceMemberOutputs) {
    const what = `${describeMember(props)} of workspace ${props.workspaceId}`;
    refuseDeleteBeforeReplace(props.workspaceId, `remove ${what}`);
    try {
      await apiClient().removeWorkspaceMember({ workspaceId: props.workspaceId, memberId: props.userId });
    } catch (err) {
      if (isNotFound(err, "MEMBER_NOT_FOUND")) {
        // After a lost first attempt, this is that attempt's removal, not one made outside Pulumi.
        if (!err.afterLostAttempt) warn(`${what} was already removed`);
        return;
      }
      if (err instanceof ApiError && err.code === "CANNOT_EDIT_OWNER") {
        throw new Error(`remove ${what}: they are the workspace's owner, who cannot be removed (CANNOT_EDIT_OWNER)`);
      }
      await confirmGone(err, WORKSPACE_VISIBILITY, `remove ${what}`, props.workspaceOwner);
      warn(`${what}: the workspace no longer exists, so the membership is gone`);
    } finally {
      forgetWorkspace(props.workspaceId);
    }
  },
};

/** Unique per membership; the handlers read workspaceId and userId from the props. */
function memberResourceId(workspaceId: string, userId: string): string {
  return `${workspaceId}/${userId}`;
}

/** The workspace and user a membership's id names (what `pulumi import` is given). */
function membershipOf(id: string): Pick<WorkspaceMemberOutputs, "workspaceId" | "userId"> {
  const [workspaceId, userId, ...rest] = id.split("/");
  if (!workspaceId || !userId || rest.length > 0) {
    throw new Error(`"${id}" is not a workspace membership's id: it is <workspaceId>/<userId>`);
  }
  return { workspaceId, userId };
}

function outputsOf({ workspace, member }: Membership): WorkspaceMemberOutputs {
  return compact({
    workspaceId: workspace.id,
    group: member.group,
    userId: member.id,
    name: member.name,
    joinedAt: member.joinedAt,
    workspaceOwner: workspace.owner,
  });
}

function describeMember(props: Pick<WorkspaceMemberOutputs, "userId" | "name">): string {
  return props.name ? `member ${props.name} (user ${props.userId})` : `member user ${props.userId}`;
}
