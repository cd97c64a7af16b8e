import { type Team, workspaceLifecycle } from "../lifecycles/workspace";
import { yamlStack } from "../harness/stack";

// A Workspace and a WorkspaceMember declared in a Pulumi YAML program, served by the native
// plugin: the team's life the TypeScript SDK's tests prove for the dynamic provider.

function teamProgram({ name, applications, group, userId }: Team) {
  return {
    // The invitee's code, read from the stack's config: kept secret when set as a secret.
    config: { bobCode: { type: "string" } },
    resources: {
      team: { type: "squarecloud:index:Workspace", properties: { name, applications } },
      bob: {
        type: "squarecloud:index:WorkspaceMember",
        properties: { workspaceId: "${team.id}", group, userId, inviteCode: "${bobCode}" },
      },
    },
    outputs: {
      teamId: "${team.id}",
      owner: "${team.owner}",
      applications: "${team.applications}",
      bobGroup: "${bob.group}",
      bobName: "${bob.name}",
    },
  };
}

workspaceLifecycle("native_team", async (first, options) => {
  const program = await yamlStack("native-workspace", teamProgram(first), options);
  return { ...program, setTeam: (team) => program.setProgram(teamProgram(team)) };
});
