"""A team's access kept in git: roster.json lists who is in the workspace and in which group.

Adding a line onboards a person, changing a group changes their permissions, deleting a line
removes them. The user ids in roster.json are the emulator's seeded users; put your team's.
The Python twin of examples/team-onboarding; docs/guides/team-onboarding.md walks through
onboarding someone.
"""

import json

import pulumi
import pulumi_squarecloud as squarecloud

with open("roster.json", encoding="utf-8") as file:
    # workspace: its name; applications: ids of the owner's applications the team shares (the
    # list is complete); members: userId, group, and codeKey, the stack config key holding their
    # invite code (a secret), which may be dropped once they joined.
    roster = json.load(file)

config = pulumi.Config()

team = squarecloud.Workspace("team", name=roster["workspace"], applications=roster["applications"])

members = [
    squarecloud.WorkspaceMember(
        f"member-{line['userId']}",
        workspace_id=team.id,
        user_id=line["userId"],
        group=line["group"],
        invite_code=config.get_secret(line["codeKey"]),
    )
    for line in roster["members"]
]

pulumi.export("workspaceId", team.id)
pulumi.export("workspaceName", team.name)
pulumi.export("memberGroups", pulumi.Output.all(*[pulumi.Output.all(m.user_id, m.group) for m in members]).apply(dict))
