import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { GO_MODULE_PATH } from "../../../scripts/gen/repository";
import { engineDir } from "../../install-script";
import { emulatorSuite } from "../harness/emulator-env";
import { hostPulumiVersion, javaLanguageHostDir, repoRoot } from "../harness/engine";
import { lockOwnGoModule, REBUILT_GO_MODULE_ENV } from "../harness/go-module-lock";
import { mavenConfig, mavenSettingsFor } from "../harness/maven-release";
import { outsideDir } from "../harness/outside-project";
import { type PluginServer, startPluginServer } from "../harness/plugin-server";
import { sharedRelease } from "./release";
import { publishRelease, type Registries, startRegistries } from "./registries";

// The `pulumi new` templates of templates/, as a user takes one once a release is published: this
// checkout's release in local registries (npm, PyPI, the Go module proxy's folder, a Maven
// repository, the plugin archives behind a stand-in for the GitHub release), then, for each
// template, `pulumi new <template dir> --yes` with the config on the command line (which installs
// the project's dependencies from those registries), `up` against the emulator, and `destroy`.

const execFileAsync = promisify(execFile);
const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const templatesDir = path.join(repoRoot, "templates");
const TEMPLATES = readdirSync(templatesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const PASSPHRASE = "templates";
const suite = emulatorSuite();
const scratch = outsideDir("templates");
let registries: Registries;
let plugins: PluginServer;
let release: string;
let mavenSettings: string;

beforeAll(async () => {
  release = await sharedRelease();
  registries = await startRegistries(path.join(scratch, "registries"));
  plugins = await startPluginServer(release);
  await publishRelease(registries, [{ dir: release, version }], scratch);
  mavenSettings = mavenSettingsFor(path.join(scratch, "maven"), `file://${path.join(release, "maven")}`);
}, 20 * 60_000);

afterAll(async () => {
  await registries?.close();
  await plugins?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The shell of a user of `template`: their own Pulumi home and state, the registries in place of the public ones. */
function userEnv(template: string, dir: string): Record<string, string> {
  const machine = (name: string) => process.env[name] ?? "";
  // The PyPI pulumi the language host is known to work with; the rest as pip resolves it.
  const constraints = path.join(dir, "..", `${template}-constraints.txt`);
  writeFileSync(constraints, `pulumi==${hostPulumiVersion()}\n`);
  return {
    ...(Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^(PULUMI_|SQUARECLOUD_)/.test(key)),
    ) as Record<string, string>),
    PATH: [engineDir(), javaLanguageHostDir(), machine("PATH")].join(path.delimiter),
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: plugins.overridesFor(template),
    npm_config_registry: registries.npm,
    PIP_INDEX_URL: `${registries.pypi}simple/`,
    PIP_CONSTRAINT: constraints,
    // This release's module from its folder; every other module from the proxy this machine uses.
    GOPROXY: `file://${path.join(release, "goproxy")},${machine("GOPROXY") || "https://proxy.golang.org"}`,
    GONOSUMDB: GO_MODULE_PATH,
    ...REBUILT_GO_MODULE_ENV,
  };
}

test("each template's project names this release's version", () => {
  const pins: Record<string, RegExp> = {
    "squarecloud-typescript/package.json": /"pulumi-squarecloud": "\^([\d.]+)"/,
    "squarecloud-yaml/Pulumi.yaml": /version: ([\d.]+)/,
    "squarecloud-python/requirements.txt": /pulumi_squarecloud==([\d.]+)/,
    "squarecloud-go/go.mod": /pulumi-squarecloud\/sdk\/go v([\d.]+)/,
    "squarecloud-java/pom.xml": /<artifactId>pulumi-squarecloud<\/artifactId>\s*<version>([\d.]+)</,
  };
  expect(
    Object.keys(pins)
      .map((file) => file.split("/")[0])
      .sort(),
  ).toEqual(TEMPLATES);
  for (const [file, pin] of Object.entries(pins))
    expect({ file, version: pin.exec(readFileSync(path.join(templatesDir, file), "utf8"))?.[1] }).toEqual({
      file,
      version,
    });
});

test.each(TEMPLATES)(
  "%s: pulumi new --yes with the URLs given, the key set as a secret, then up and destroy",
  async (template) => {
    const dir = path.join(scratch, template);
    mkdirSync(path.join(dir, ".state"), { recursive: true });
    const env = userEnv(template, dir);
    const { emulator } = suite;
    const releaseGoModule = template.endsWith("-go") ? await lockOwnGoModule() : undefined;
    try {
      const project = path.join(dir, "project");
      const pulumi = (...args: string[]) =>
        execFileAsync(path.join(engineDir(), "pulumi"), args, { cwd: project, env, maxBuffer: 64 * 1024 * 1024 });
      mkdirSync(project);
      if (template.endsWith("-java")) {
        // What differs from the user's run: Maven resolves the SDK from this release's repository, as it
        // would from Maven Central, from the moment `pulumi new` compiles the project (hence --force).
        mkdirSync(path.join(project, ".mvn"));
        writeFileSync(path.join(project, ".mvn", "maven.config"), mavenConfig(mavenSettings));
      }
      // The URLs on the command line; the key, as the docs say, by `pulumi config set --secret`
      // afterwards: `pulumi new` stores a --config value as given, even for a template's secret.
      await pulumi(
        "new",
        path.join(templatesDir, template),
        "--yes",
        "--force",
        "--name",
        template,
        "--stack",
        "dev",
        "--config",
        `squarecloud:platformUrl=${emulator.platformUrl}`,
        "--config",
        `squarecloud:blobUrl=${emulator.blobUrl}`,
      );
      await pulumi("config", "set", "--secret", "squarecloud:apiKey", emulator.accounts[0].apiKey);
      const stackConfig = readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
      expect(stackConfig).toMatch(/squarecloud:apiKey:\s+secure: /);
      expect(stackConfig).not.toContain(emulator.accounts[0].apiKey);
      expect(stackConfig).toContain(`squarecloud:platformUrl: ${emulator.platformUrl}`);

      // What differs from the user's run: the Python host built here (of sdk v3.68.0) makes the
      // virtualenv in the project's own directory and runs the first python on PATH, where the
      // official one honours the template's `virtualenv: venv`.
      const upEnv = template.endsWith("-python")
        ? { ...env, PATH: [path.join(project, "bin"), env.PATH].join(path.delimiter) }
        : env;
      const stack = await LocalWorkspace.selectStack({ stackName: "dev", workDir: project }, { envVars: upEnv });
      const up = await stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 2 });
      expect(up.outputs.cacheUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
      expect(await suite.api.getDatabase(up.outputs.cacheId.value)).toMatchObject({ name: "cache", type: "redis" });
      const destroy = await stack.destroy();
      expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
      // Every language but TypeScript ran on the plugin the engine downloaded from the release, once.
      expect(plugins.log.filter((line) => line.startsWith(`GET /${template}/`))).toHaveLength(
        template.endsWith("-typescript") ? 0 : 1,
      );
    } finally {
      releaseGoModule?.();
    }
  },
);
