import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { repoRootStack } from "../harness/stack";

// `pulumi up` from the repository root runs the program its Pulumi.yaml names, as a user
// cloning the repository would run it.

const suite = emulatorSuite();

test("the root Pulumi.yaml runs its program: up creates it, destroy removes it", async () => {
  const { accounts } = suite.emulator;
  const codes = await inviteCodeConfig(suite.emulator, { bobInviteCode: accounts[1], daveInviteCode: accounts[3] });
  const config = { ...emulatorConfig(suite.emulator), ...codes };
  // No ts-node type-check: the build's tsc checked the program with this same tsconfig.json (the repository's).
  const env = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
  const root = suite.keep(await repoRootStack({ config, env }));
  const up = await root.stack.up();
  // What the demo prints: the preview's and the update's outputs, the linked app by name once known.
  expect(up.stdout).not.toContain("undefined");
  expect(up.outputs.workspaceApps.value).toEqual([expect.stringMatching(/^Alice Website \(/)]);
  // The showcase: two databases, a workspace with two members, three asset files in a folder, a snapshot.
  expect(up.summary.resourceChanges).toEqual({ create: 11 });
  const { databases, workspaceId, assetUrls } = up.outputs;
  expect(await suite.api.getDatabase(databases.value.sessions.id)).toMatchObject({ name: "sessions", type: "redis" });
  // Files beside the program are found from the root too: the roster and the public/ folder.
  expect((await suite.api.getWorkspace(workspaceId.value)).members).toHaveLength(3);
  expect((await fetch(assetUrls.value["index.html"])).status).toBe(200);

  await root.stack.destroy();
  await expect(suite.api.getDatabase(databases.value.sessions.id)).rejects.toMatchObject({
    code: "DATABASE_NOT_FOUND",
  });
  await expect(suite.api.getWorkspace(workspaceId.value)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
});
