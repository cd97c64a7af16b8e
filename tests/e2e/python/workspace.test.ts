import { type Team, workspaceLifecycle } from "../lifecycles/workspace";
import { pythonStack } from "../harness/stack";

// A Workspace and a WorkspaceMember declared in a Pulumi Python program with the generated SDK,
// served by the native plugin: the team's life the TypeScript SDK's tests prove for the dynamic
// provider.

function teamProgram({ name, applications, group, userId }: Team): string {
  return `import pulumi
import pulumi_squarecloud as squarecloud

# The invitee's code, read from the stack's config: kept secret when set as a secret.
bob_code = pulumi.Config().require("bobCode")
team = squarecloud.Workspace("team", name=${JSON.stringify(name)}, applications=${JSON.stringify(applications)})
bob = squarecloud.WorkspaceMember("bob", workspace_id=team.id, group=${JSON.stringify(group)}, user_id=${JSON.stringify(userId)}, invite_code=bob_code)
pulumi.export("teamId", team.id)
pulumi.export("owner", team.owner)
pulumi.export("applications", team.applications)
pulumi.export("bobGroup", bob.group)
pulumi.export("bobName", bob.name)
`;
}

workspaceLifecycle("python_team", async (first, options) => {
  const program = await pythonStack("python-workspace", teamProgram(first), options);
  return { ...program, setTeam: (team) => program.setProgram(teamProgram(team)) };
});
