// Declares the workspaces of config `workspaces` (logical name -> Workspace args) and the members
// of config `members` (logical name -> member line), so one program serves every workspace
// scenario of the e2e suite. A member line names its workspace by logical name and the secret
// config key holding its invite code, as a team's roster does.
import * as pulumi from "@pulumi/pulumi";
import { Workspace, type WorkspaceArgs, WorkspaceMember } from "pulumi-squarecloud";

interface MemberLine {
  workspace: string;
  group: string;
  userId?: string;
  codeKey?: string;
}

const config = new pulumi.Config();
const workspaceSpecs = config.requireObject<Record<string, WorkspaceArgs>>("workspaces");
const memberLines = config.getObject<Record<string, MemberLine>>("members") ?? {};

// Each application id goes in as an Output, as ids from a data source or another resource do.
const asOutputs = (ids: WorkspaceArgs["applications"]) =>
  ids === undefined ? undefined : (ids as string[]).map((id) => pulumi.output(id));

const created = Object.fromEntries(
  Object.entries(workspaceSpecs).map(([key, args]) => [
    key,
    new Workspace(key, { ...args, applications: asOutputs(args.applications) }),
  ]),
);

export const workspaces = Object.fromEntries(
  Object.entries(created).map(([key, ws]) => [
    key,
    { id: ws.id, name: ws.name, owner: ws.owner, members: ws.members, applications: ws.applications },
  ]),
);

export const members = Object.fromEntries(
  Object.entries(memberLines).map(([key, line]) => {
    const member = new WorkspaceMember(key, {
      workspaceId: created[line.workspace]?.id ?? line.workspace,
      group: line.group as "admin",
      userId: line.userId,
      inviteCode: line.codeKey === undefined ? undefined : config.getSecret(line.codeKey),
    });
    return [key, { id: member.id, group: member.group, userId: member.userId, name: member.name }];
  }),
);

// The outputs of the shared lifecycle (tests/e2e/lifecycles/workspace.ts), of the workspace it
// names team and the member it names bob.
export const teamId = created.team?.id;
export const owner = created.team?.owner;
export const applications = created.team?.applications;
export const bobGroup = members.bob?.group;
export const bobName = members.bob?.name;
