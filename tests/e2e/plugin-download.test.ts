import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { buildWheel, projectPython } from "../../scripts/build-python";
import { GO_MODULE_PATH, PLUGIN_DOWNLOAD_URL } from "../../scripts/gen/repository";
import { archiveName, hostTarget } from "../../scripts/plugin-archive";
import { packageVersion } from "../../provider/client/version";
import { engineDir } from "../install-script";
import { archiveDir } from "../plugin-archives";
import { emulatorConfig, emulatorSuite } from "./emulator-env";
import { goLanguageHostDir, pulumiEngine, pythonBinDir, repoRoot, yamlLanguageHostDir } from "./engine";
import { type PluginServer, startPluginServer } from "./plugin-server";
import { type UserMachine, userMachine, which } from "./user-machine";

// The plugin as users of YAML, Python and Go get it: they install the SDK alone (Python's wheel, the
// Go module; YAML needs none) and the engine downloads the plugin archive of their machine from the
// release the SDK names, on the first `up`. Each user has a fresh directory outside this
// repository, a fresh Pulumi home and no Node on PATH; a local server stands in for the GitHub
// release, reached through PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES from the real URL.

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

test("Python: with the SDK's wheel installed, up downloads the plugin the wheel names", async () => {
  // The virtualenv's bin/ holds python (with PyPI pulumi) and the language host.
  const user = newUser("python", [], [pythonBinDir()]);
  // The SDK as `pip install` puts it: the wheel's files and metadata in a site directory of the user's.
  const wheel = buildWheel(path.join(user.dir, "wheel"));
  user.env.PYTHONPATH = path.join(user.dir, "site-packages");
  execFileSync(
    projectPython(),
    ["-m", "pip", "install", "--quiet", "--no-deps", "--target", user.env.PYTHONPATH, wheel],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  writeFileSync(path.join(user.project, "Pulumi.yaml"), "name: python-user\nruntime: python\n");
  writeFileSync(
    path.join(user.project, "__main__.py"),
    'import pulumi_squarecloud as squarecloud\n\nsquarecloud.Database("cache", name="pycache", type="redis", memory=512, version="7.4.5")\n',
  );
  await lifecycle(user);
});

test("Go: with the SDK's module required, up downloads the plugin the module names", async () => {
  const go = realpathSync(which("go", process.env.PATH ?? "")!);
  const user = newUser("go", [path.join(goLanguageHostDir(), "pulumi-language-go")], [path.dirname(go)]);
  // The module as the Go proxy would give it, copied beside the project.
  const sdk = path.join(user.dir, "sdk-go");
  for (const part of ["go.mod", "go.sum", "squarecloud"])
    cpSync(path.join(repoRoot, "sdk", "go", part), path.join(sdk, part), { recursive: true });
  const sdkModule = readFileSync(path.join(sdk, "go.mod"), "utf8");
  writeFileSync(
    path.join(user.project, "go.mod"),
    `${sdkModule.replace(/^module .*$/m, "module gouser")}\nrequire ${GO_MODULE_PATH} v0.0.0\n\nreplace ${GO_MODULE_PATH} => ${sdk}\n`,
  );
  cpSync(path.join(sdk, "go.sum"), path.join(user.project, "go.sum"));
  writeFileSync(path.join(user.project, "Pulumi.yaml"), "name: go-user\nruntime: go\n");
  writeFileSync(
    path.join(user.project, "main.go"),
    `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/squarecloud/pulumi-squarecloud/sdk/go/squarecloud"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, err := squarecloud.NewDatabase(ctx, "cache", &squarecloud.DatabaseArgs{
			Name: pulumi.String("gocache"), Type: pulumi.String("redis"), Memory: pulumi.Int(512), Version: pulumi.String("7.4.5"),
		})
		return err
	})
}
`,
  );
  await lifecycle(user);
});
