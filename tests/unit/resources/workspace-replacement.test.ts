import { workspaceHandler } from "../../../provider/resources/workspace";
import { workspaceMemberHandler } from "../../../provider/resources/workspace-member";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The deleteBeforeReplace guard seen from the provider, as a YAML, Python or Go program meets it:
// a renamed workspace's delete, or its members', before any replacement exists is refused.

const env = providerAgainstEmulator();
const PROVIDER = "serialized-stub";

test("a delete before the renamed workspace's replacement is refused and deletes nothing; after the create it goes on", async () => {
  const old = await workspaceHandler.create({ name: "old_team", __provider: PROVIDER });
  const member = { workspaceId: old.id, userId: env.emulator.accounts[1].accountId, group: "view" };
  const diff = await workspaceHandler.diff(old.id, old.outs, { name: "new_team" });
  expect(diff.replaces).toEqual(["name"]);

  const refused =
    "deleteBeforeReplace is not allowed on a Workspace: a replacement (a new name) would delete the old workspace";
  await expect(workspaceMemberHandler.delete(`${old.id}/${member.userId}`, member)).rejects.toThrow(refused);
  await expect(workspaceHandler.delete(old.id, old.outs)).rejects.toThrow(
    `delete workspace "old_team" (${old.id}): ${refused}`,
  );
  expect((await env.api.getWorkspace(old.id)).name).toBe("old_team");

  await workspaceHandler.create({ name: "new_team", __provider: PROVIDER });
  await workspaceHandler.delete(old.id, old.outs);
  await expect(env.api.getWorkspace(old.id)).rejects.toThrow("WORKSPACE_NOT_FOUND");
});
