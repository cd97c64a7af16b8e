import { ApiError, isNotFound } from "../../client";
import { oneAtATime } from "../../lifecycle/one-at-a-time";
import { apiClient } from "../../runtime";
import type { Workspace, WorkspaceMember } from "../../client/payloads/platform";
import type { WorkspaceMemberInputs } from "../../kinds/workspace-member";
import { forgetWorkspace, readWorkspaceAfresh } from "../workspace/live";
import { confirmGone } from "../../lifecycle/gone";
import { WORKSPACE_VISIBILITY } from "../../kinds/workspace";
import { describeWho, freshCodeSteps } from "./guidance";

// The add answers only a status: the new member is found by comparing the members, one add at a time.

export interface Membership {
  workspace: Workspace;
  member: WorkspaceMember;
}

export function addMember(inputs: WorkspaceMemberInputs): Promise<Membership> {
  return oneAtATime(`workspace:${inputs.workspaceId}`, async () => {
    const before = await workspaceForMembers(inputs.workspaceId);
    const existing = inputs.userId === undefined ? undefined : before.members.find((m) => m.id === inputs.userId);
    if (existing) return takeOver(before, existing, inputs);
    if (inputs.inviteCode === undefined) {
      throw new Error(
        `add ${describeWho(inputs.userId)} to workspace "${before.name}" (${before.id}): they are not a member and ` +
          `inviteCode is not set, and only an invite code can add them. ${freshCodeSteps(describeWho(inputs.userId))}`,
      );
    }
    const joined = await sendAdd(before, inputs, inputs.inviteCode);
    if (inputs.userId !== undefined && joined.id !== inputs.userId)
      await refuseWrongPerson(before, joined, inputs.userId);
    return { workspace: before, member: joined };
  });
}

async function workspaceForMembers(workspaceId: string): Promise<Workspace> {
  try {
    return await readWorkspaceAfresh(workspaceId);
  } catch (err) {
    if (!isNotFound(err, "WORKSPACE_NOT_FOUND")) throw err;
    throw new Error(
      `workspace ${workspaceId} is not found with the configured API key (WORKSPACE_NOT_FOUND): it does not exist, or ` +
        `the key is not its owner's (only the owner can add members)`,
    );
  }
}

/** The user is a member already (joined before, or added outside Pulumi): no code is needed. */
async function takeOver(
  workspace: Workspace,
  member: WorkspaceMember,
  inputs: WorkspaceMemberInputs,
): Promise<Membership> {
  if (member.group === "owner") {
    throw new Error(
      `user ${member.id} is the owner of workspace "${workspace.name}" (${workspace.id}); the owner belongs to the ` +
        `workspace by creating it and cannot be a WorkspaceMember. Remove this member from the program.`,
    );
  }
  if (member.group !== inputs.group) {
    await apiClient().updateWorkspaceMember({ workspaceId: workspace.id, memberId: member.id, group: inputs.group });
    forgetWorkspace(workspace.id);
  }
  return { workspace, member: { ...member, group: inputs.group } };
}

/** A first sending that lands late makes a later one a refusal, which the read below turns into the answer. */
async function sendAdd(before: Workspace, inputs: WorkspaceMemberInputs, code: string): Promise<WorkspaceMember> {
  const where = `workspace "${before.name}" (${before.id})`;
  const who = describeWho(inputs.userId);
  const joinedSince = async () => newMembers(before, await readWorkspaceAfresh(before.id));
  try {
    await apiClient().addWorkspaceMember(
      { workspaceId: before.id, code, group: inputs.group },
      // Conclusive: a code adds one person once, so while nobody joined it is sent again.
      { conclusive: true, read: async () => (await joinedSince()).length > 0 || undefined },
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const late = err.afterLostAttempt ? await joinedSince() : [];
    if (late.length > 0)
      return pickOrFail(late, inputs, `add ${who} to ${where}: the code was sent again after a lost answer, and`);
    if (err.mayHaveCommitted) throw unknownOutcome(`add ${who} to ${where}`, inputs, err);
    const explained = explainRefusal(err, who, where, before);
    if (explained) throw explained;
    await confirmGone(err, WORKSPACE_VISIBILITY, `add ${who} to ${where}`, before.owner);
    throw err;
  } finally {
    forgetWorkspace(before.id);
  }
  const joined = await joinedSince();
  if (joined.length === 1) return joined[0];
  return pickOrFail(joined, inputs, `add ${who} to ${where}: the add succeeded`);
}

/** The refusals a user can act on, with what to do; undefined for any other error. */
function explainRefusal(err: ApiError, who: string, where: string, workspace: Workspace): Error | undefined {
  switch (err.code) {
    case "INVALID_CODE":
      return new Error(
        `add ${who} to ${where}: the invite code was refused (INVALID_CODE): it is invalid, already used or expired. ` +
          `A code works once, within 5 minutes of being fetched; a code that added someone before is spent. ${freshCodeSteps(who)}`,
      );
    case "CANNOT_INVITE_OWNER":
      return new Error(
        `add ${who} to ${where}: the invite code is the workspace owner's own code (CANNOT_INVITE_OWNER); the owner ` +
          `is in the workspace by creating it. Put the invitee's own code in inviteCode. ${freshCodeSteps(who)}`,
      );
    case "MEMBER_ALREADY_ADDED": {
      const members = workspace.members
        .filter((m) => m.group !== "owner")
        .map((m) => `${m.name} (${m.id}, ${m.group})`);
      return new Error(
        `add ${who} to ${where}: the code's owner is a member already (MEMBER_ALREADY_ADDED). Set userId to their user ` +
          `id, so that this resource takes the membership over without a code. Members now: ${members.join(", ") || "none"}.`,
      );
    }
    default:
      return undefined;
  }
}

/** Every sending was lost and nobody had joined after any of them. */
function unknownOutcome(what: string, inputs: WorkspaceMemberInputs, cause: ApiError): Error {
  return new Error(
    `${what}: the outcome is unknown (${cause.message}) and nobody new had joined after any sending. Run pulumi up ` +
      `again: it reads the members first${inputs.userId === undefined ? " (set userId, so that a late join is taken over)" : " and takes the membership over if they joined"}, ` +
      `and otherwise uses the code once more if it is still valid.`,
  );
}

/** Several members appeared at once (someone else added members meanwhile): only userId can tell. */
function pickOrFail(joined: WorkspaceMember[], inputs: WorkspaceMemberInputs, what: string): WorkspaceMember {
  const mine = joined.find((m) => m.id === inputs.userId);
  if (mine) return mine;
  if (joined.length === 1) return joined[0];
  const names = joined.map((m) => `${m.name} (${m.id})`).join(", ");
  throw new Error(
    `${what} ${joined.length === 0 ? "no new member appears" : `${joined.length} new members appeared (${names})`}, so ` +
      `this resource cannot tell which one is its member. Set userId to the invitee's user id and run pulumi up again: ` +
      `a member already there is taken over without a code.`,
  );
}

/** Someone else's code: removed at once, since the program is the list of who has access. */
async function refuseWrongPerson(workspace: Workspace, joined: WorkspaceMember, userId: string): Promise<never> {
  const where = `workspace "${workspace.name}" (${workspace.id})`;
  const mismatch = `the invite code given for user ${userId} belongs to ${joined.name} (user ${joined.id}), who was added to ${where} by it`;
  try {
    await apiClient().removeWorkspaceMember({ workspaceId: workspace.id, memberId: joined.id });
  } catch (err) {
    throw new Error(
      `${mismatch} and could NOT be removed again (${(err as Error).message}). Remove them by hand (DELETE ` +
        `/v2/workspaces/members with workspaceId ${workspace.id} and memberId ${joined.id}). ${freshCodeSteps(`user ${userId}`)}`,
    );
  } finally {
    forgetWorkspace(workspace.id);
  }
  throw new Error(
    `${mismatch}, and was removed again at once, since the program does not give them access; nobody else was ` +
      `touched. Check which config key holds whose code. ${freshCodeSteps(`user ${userId}`)}`,
  );
}

function newMembers(before: Workspace, after: Workspace): WorkspaceMember[] {
  return after.members.filter((m) => !before.members.some((b) => b.id === m.id));
}
