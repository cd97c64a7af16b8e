import { rmSync } from "node:fs";
import { ConfigMap } from "@pulumi/pulumi/automation";
import { SEED_APPS, SEED_DATABASES } from "../../../emulator";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../emulator-env";
import { outsideDir, packInto } from "../outside-project";
import { outsideExampleStack } from "../stack";

// Every example as README says to copy it: into a directory of its own outside this repository
// with the tarball in vendor/, where its package.json names it, then `npm install` and the real
// engine's up and destroy. One tarball serves them all, and the installs share npm's cache.
// gitops runs this way, with its workflow's environment, in examples.test.ts.

const suite = emulatorSuite();
let tarballDir: string;
let tarball: string;

beforeAll(() => {
  tarballDir = outsideDir("tarball");
  tarball = packInto(tarballDir);
});
afterAll(() => rmSync(tarballDir, { recursive: true, force: true }));

/** Each example's own config, as its comments and docs/emulator.md (Running an example) say to set it. */
const exampleConfig: Record<string, () => Promise<ConfigMap>> = {
  "backup-and-restore": async () => ({ appId: { value: SEED_APPS.aliceApi }, databaseId: { value: SEED_DATABASES.aliceCache } }),
  quickstart: async () => {
    const bob = suite.emulator.accounts[1];
    return { teammateId: { value: bob.accountId }, ...(await inviteCodeConfig(suite.emulator, { teammateInviteCode: bob })) };
  },
  "team-onboarding": async () => {
    const [, bob, carol, dave] = suite.emulator.accounts;
    return inviteCodeConfig(suite.emulator, { bobInviteCode: bob, carolInviteCode: carol, daveInviteCode: dave });
  },
  "static-assets": async () => ({}),
  showcase: async () => {
    const [, bob, , dave] = suite.emulator.accounts;
    return inviteCodeConfig(suite.emulator, { bobInviteCode: bob, daveInviteCode: dave });
  },
  "protected-database": async () => ({}),
};

async function installedExample(example: string) {
  const config = { ...emulatorConfig(suite.emulator), ...(await exampleConfig[example]()) };
  return suite.keep(await outsideExampleStack(example, tarball, { config }));
}

test.each(Object.keys(exampleConfig).filter((example) => example !== "protected-database"))(
  "%s, copied out of the repository and installed from the tarball, runs up and destroy",
  async (example) => {
    const { stack } = await installedExample(example);
    const created = (await stack.up()).summary.resourceChanges?.create ?? 0;
    expect(created).toBeGreaterThan(1);
    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: created });
  },
);

test("protected-database, copied out and installed the same way, runs up; destroy stops until protect is lifted, then keeps the database", async () => {
  const { stack } = await installedExample("protected-database");
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  await expect(stack.destroy()).rejects.toThrow(/protect/);

  // What the example's comment says to do (`pulumi state unprotect`), through the state itself.
  const state = await stack.exportStack();
  for (const resource of state.deployment.resources) delete resource.protect;
  await stack.importStack(state);
  expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 2 });
  // retainOnDelete: Pulumi forgot it, the database runs on.
  expect(await suite.api.getDatabase(up.outputs.ordersId.value)).toMatchObject({ name: "orders" });
});
