import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { PLUGIN_DOWNLOAD_URL } from "../../scripts/gen/repository";
import { archiveName, hostTarget } from "../../scripts/plugin-archive";
import { packageVersion } from "../../provider/client/version";
import { engineDir } from "../install-script";
import { archiveDir } from "../plugin-archives";
import { emulatorConfig, emulatorSuite } from "./harness/emulator-env";
import { pulumiEngine, yamlLanguageHostDir } from "./harness/engine";
import { type PluginServer, startPluginServer } from "./harness/plugin-server";
import { type UserMachine, userMachine, which } from "./harness/user-machine";

// The plugin as a user of YAML gets it: no SDK to install, the engine downloads the plugin archive
// of their machine from the release the program names, on the first `up`. The user has a fresh
// directory outside this repository, a fresh Pulumi home and no Node on PATH; a local server
// stands in for the GitHub release, reached through PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES from the
// real URL. The Python and Go users, whose SDK names the release, are the release rehearsal's
// (tests/e2e/release/rehearsal.test.ts): installed from the registries, with no Node on PATH either.

const suite = emulatorSuite();
const asset = archiveName(packageVersion(), hostTarget());
let server: PluginServer;
const users: UserMachine[] = [];

beforeAll(async () => (server = await startPluginServer(archiveDir)));
afterAll(async () => {
  await server?.close();
  for (const user of users) user.remove();
});

/** A stack of `user`'s project, run by the real CLI with that user's home, environment and download override. */
async function userStack(user: UserMachine, stackName = "dev"): Promise<Stack> {
  const workspace = await LocalWorkspace.create({
    workDir: user.project,
    pulumiCommand: await pulumiEngine(),
    envVars: {
      ...user.env,
      PULUMI_BACKEND_URL: `file://${user.backend}`,
      PULUMI_CONFIG_PASSPHRASE: "user-passphrase",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: server.overridesFor(user.name),
    },
  });
  const stack = await Stack.create(stackName, workspace);
  await stack.setAllConfig(emulatorConfig(suite.emulator));
  return stack;
}

/** A user with the engine, `programs` and the directories `dirs` before the system's programs on PATH. */
function newUser(name: string, programs: string[], dirs: string[] = []): UserMachine {
  const user = userMachine(name, [path.join(engineDir(), "pulumi"), ...programs], dirs);
  users.push(user);
  expect(which("node", user.env.PATH)).toBeUndefined();
  expect(which("pulumi", user.env.PATH)).toBeDefined();
  return user;
}

const downloads = (user: UserMachine) => server.log.filter((line) => line.startsWith(`GET /${user.name}/`));

/** up (the engine downloads the plugin), preview with no changes, destroy; the server saw one GET. */
async function lifecycle(user: UserMachine): Promise<void> {
  const stack = await userStack(user);
  const up = await stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  expect(existsSync(path.join(user.home, "plugins", `resource-squarecloud-v${packageVersion()}`, "node"))).toBe(true);
  await stack.preview({ expectNoChanges: true });
  const destroy = await stack.destroy();
  expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
  expect(downloads(user)).toEqual([`GET /${user.name}/${asset} 200`]);
}

test("YAML: up downloads the plugin from the URL the resource names; a second stack downloads nothing; get-schema shows the URL", async () => {
  const user = newUser("yaml", [path.join(yamlLanguageHostDir(), "pulumi-language-yaml")]);
  writeFileSync(
    path.join(user.project, "Pulumi.yaml"),
    `name: yaml-user
runtime: yaml
resources:
  cache:
    type: squarecloud:index:Database
    properties:
      name: yamlcache
      type: redis
      memory: 512
      version: "7.4.5"
    options:
      version: ${packageVersion()}
      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}
`,
  );
  await lifecycle(user);

  const second = await userStack(user, "second");
  await second.preview();
  const schema = JSON.parse(
    execFileSync("pulumi", ["package", "get-schema", "squarecloud"], {
      cwd: user.project,
      env: user.env,
      encoding: "utf8",
    }),
  );
  expect(schema).toMatchObject({
    name: "squarecloud",
    version: packageVersion(),
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
  });
  expect(downloads(user)).toHaveLength(1);
});
