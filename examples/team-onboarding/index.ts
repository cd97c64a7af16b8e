// A team's access kept in git: roster.json lists who is in the workspace and in which group.
// Adding a line onboards a person, changing a group changes their permissions, deleting a line
// removes them. The user ids in roster.json are the emulator's seeded users; put your team's.
// docs/guides/team-onboarding.md walks through onboarding someone.
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

interface RosterLine {
  /** The person's Square Cloud user id. */
  userId: string;
  group: sq.WorkspaceMemberArgs["group"];
  /** The stack config key holding their invite code (a secret); may be dropped once they joined. */
  codeKey: string;
}

interface Roster {
  workspace: string;
  /** Ids of the owner's applications the team shares; the list is complete. */
  applications: string[];
  members: RosterLine[];
}

const roster: Roster = JSON.parse(readFileSync("roster.json", "utf8"));
const config = new pulumi.Config();

const team = new sq.Workspace("team", { name: roster.workspace, applications: roster.applications });

const members = roster.members.map(
  (line) =>
    new sq.WorkspaceMember(`member-${line.userId}`, {
      workspaceId: team.id,
      userId: line.userId,
      group: line.group,
      inviteCode: config.getSecret(line.codeKey),
    }),
);

export const workspaceId = team.id;
export const workspaceName = team.name;
export const memberGroups = pulumi
  .all(members.map((m) => pulumi.all([m.userId, m.group])))
  .apply((pairs) => Object.fromEntries(pairs));
