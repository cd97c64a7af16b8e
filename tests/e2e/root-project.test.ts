import { emulatorConfig, emulatorSuite } from "./emulator-env";
import { repoRootStack } from "./stack";

// `pulumi up` from the repository root runs the program its Pulumi.yaml names, as a user
// cloning the repository would run it.

const suite = emulatorSuite();

test("the root Pulumi.yaml runs its program: up creates it, destroy removes it", async () => {
  const root = suite.keep(await repoRootStack({ config: emulatorConfig(suite.emulator) }));
  const up = await root.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  expect(await suite.api.getDatabase(up.outputs.cacheId.value)).toMatchObject({ name: "cache", type: "redis" });

  await root.stack.destroy();
  await expect(suite.api.getDatabase(up.outputs.cacheId.value)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
});
