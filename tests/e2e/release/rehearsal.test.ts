import { execFile, execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import * as path from "node:path";
import { mavenArtifactDir } from "../../../scripts/build-java";
import { JAVA_ARTIFACT_ID, JAVA_GROUP_ID, PULUMI_JAVA_VERSION } from "../../../scripts/gen/java-pom";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/gen/repository";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
import { pastRelease } from "../../../scripts/release/past-release";
import { RELEASES_DIR } from "../../../scripts/release/recorded";
import { compareVersions } from "../../../scripts/release/schema-compare";
import { archiveName, hostTarget } from "../../../scripts/plugin-archive";
import { engineDir } from "../../install-script";
import { lockOwnGoModule, REBUILT_GO_MODULE_ENV } from "../harness/go-module-lock";
import { mavenConfig, mavenSettingsFor } from "../harness/maven-release";
import { fencedBlocks } from "../../doc-blocks";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { goLanguageHostDir, hostPulumiVersion, javaLanguageHostDir, pythonBinDir, repoRoot } from "../harness/engine";
import { outsideDir, pinnedDevDependency, pinnedPulumiSdk } from "../harness/outside-project";
import { type PluginServer, startPluginServer } from "../harness/plugin-server";
import { type ProgramStack, userProjectStack } from "../harness/stack";
import { type UserMachine, userMachine, which } from "../harness/user-machine";
import { sharedRelease } from "./release";
import { type MavenRepositoryServer, serveMavenRepository } from "./maven-repository";
import { goProxyOf, publishRelease, type Registries, startRegistries } from "./registries";
import { addedLines, runUpgradeCommands, upgradeCommands } from "./upgrading";

// The release published for real, on this machine, after the one before it: the artifacts of
// `npm run release` of the previous release's commit (scripts/release/past-release.ts), then of this
// checkout, go to a local npm registry with `npm publish`, to a local PyPI index with `twine upload`,
// the Go modules to a module proxy folder, the plugin archives of both behind an HTTP server that the
// engine downloads the plugin from, this release's Java SDK to a Maven repository signed with a key
// made for the rehearsal and served over HTTP as Maven Central serves it. Then users, each in a
// directory of their own with a Pulumi home of their own and nothing of this clone on any path,
// install the previous release by name and run its program against the emulator (`up`), upgrade
// with the commands of docs/installation-configuration.md's "Upgrading", and run a preview that
// must find no change, `up`, then destroy. The Python, Go and Java users have no Node on PATH: the
// engine downloads the plugin archive of their machine, of each version once, from the URL their
// SDK names. A YAML project pinned to the previous release beside the Python one, on one machine,
// upgrades first: the Python program, still on the previous release, keeps running that release's
// plugin beside the new one's (version skew). Java was first released in 0.2.0: its user starts on
// this release.

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Record<string, unknown> & {
  version: string;
  description: string;
  license: string;
};
const version = manifest.version;

/** The release before this one, as tests/fixtures/releases records it: its version and the commit it was built from. */
function recordedReleaseBefore(current: string): { version: string; commit: string } {
  const dir = path.join(repoRoot, RELEASES_DIR);
  const before = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && compareVersions(entry.name, current) < 0)
    .map((entry) => entry.name)
    .sort(compareVersions)
    .at(-1);
  if (before === undefined) throw new Error(`no release before ${current} under ${RELEASES_DIR}`);
  return JSON.parse(readFileSync(path.join(dir, before, "release.json"), "utf8"));
}

const previous = recordedReleaseBefore(version);
const suite = emulatorSuite();
const scratch = outsideDir("rehearsal");
let release: string;
/** The previous release, as `npm run release` built it from its commit. */
let previousRelease: string;
let registries: Registries;
let plugins: PluginServer;
/** The Go module proxy folder serving both releases' modules. */
let goProxy: string;
const execFileAsync = promisify(execFile);
/** The machines of the users without Node (their Pulumi home, PATH and caches), removed at the end. */
const users: UserMachine[] = [];

/** The Example programs of the registry's page, docs/_index.md, by language (the same at the previous release). */
const examples = Object.fromEntries(fencedBlocks("docs/_index.md").map((block) => [block.language, block.code]));

/** A user without Node: the engine, the directories `dirs`, then the system's programs on PATH. */
function userWithoutNode(name: string, programs: string[], dirs: string[]): UserMachine {
  const user = userMachine(name, [path.join(engineDir(), "pulumi"), ...programs], dirs);
  users.push(user);
  expect(which("node", user.env.PATH)).toBeUndefined();
  return user;
}

/** The engine's environment for a user: their shell's, plugin downloads sent to the local server as `name`. */
function userEnv(name: string, shell: Record<string, string>): Record<string, string> {
  return { ...shell, PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: plugins.overridesFor(name) };
}

/** The first `up` of a user's program on the previous release: a stack and the database. */
async function firstUp(program: ProgramStack): Promise<void> {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  expectDatabaseCreated(Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value])));
}

/**
 * A preview that must find no change, with no warning about the plugin's version, and, as the
 * engine's log says, the version each provider plugin it ran reported to the engine (GetPluginInfo:
 * a program of the native plugin runs no other) and the folder the squarecloud plugin ran from.
 */
async function previewNoChange(program: ProgramStack): Promise<{ reported: string[]; ranFrom: string[] }> {
  const preview = await program.stack.preview({ expectNoChanges: true, logVerbosity: 9, logToStdErr: true });
  expect(`${preview.stdout}\n${preview.stderr}`).not.toMatch(/resource plugin \S+ is expected to have version/);
  const distinct = (pattern: RegExp) => [...new Set([...preview.stderr.matchAll(pattern)].map((match) => match[1]))];
  return {
    reported: distinct(/\.GetPluginInfo\(\) success \(#version=([^)]*)\)/g),
    ranFrom: distinct(/Launching plugin 'squarecloud \(resource\)' from '([^']*)\/pulumi-resource-squarecloud'/g).map(
      (dir) => path.basename(dir),
    ),
  };
}

/** What the plugin of `pluginVersion` shows in previewNoChange: it ran from its own folder and reported its own version. */
function ranPlugin(pluginVersion: string): { reported: string[]; ranFrom: string[] } {
  return { reported: [pluginVersion], ranFrom: [`resource-squarecloud-v${pluginVersion}`] };
}

/** After the upgrade: `up` changes nothing, then destroy. */
async function upThenDestroy(program: ProgramStack): Promise<void> {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ same: 2 });
  const destroy = await program.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
}

/** The engine downloaded the archive of this machine of each of `versions`, once and in that order, for `user`, into their Pulumi home. */
function expectPluginsDownloaded(user: UserMachine, versions: string[]): void {
  for (const each of versions)
    expect(existsSync(path.join(user.home, "plugins", `resource-squarecloud-v${each}`, "node"))).toBe(true);
  expect(plugins.log.filter((line) => line.startsWith(`GET /${user.name}/`))).toEqual(
    versions.map((each) => `GET /${user.name}/${archiveName(each, hostTarget())} 200`),
  );
}

/** The versions of the squarecloud plugin `pulumi plugin ls` lists in the Pulumi home of `env`. */
function installedPlugins(env: Record<string, string>): string[] {
  const listed = JSON.parse(
    execFileSync(path.join(engineDir(), "pulumi"), ["plugin", "ls", "--json"], {
      env: { ...process.env, ...env },
      encoding: "utf8",
    }),
  ) as { name: string; kind: string; version: string }[];
  return listed
    .filter((plugin) => plugin.name === "squarecloud" && plugin.kind === "resource")
    .map((plugin) => plugin.version)
    .sort();
}

function expectDatabaseCreated(outputs: Record<string, unknown>): void {
  expect(outputs.sessionsId).toEqual(expect.any(String));
  expect(outputs.sessionsUrl).toMatch(/^redis:\/\//);
}

beforeAll(async () => {
  release = await sharedRelease();
  // Built from its commit once per machine (minutes), then cached.
  const built = await pastRelease(previous.commit);
  expect(built.version).toBe(previous.version);
  previousRelease = built.dir;
  registries = await startRegistries(path.join(scratch, "registries"));
  plugins = await startPluginServer(previousRelease, release);
  // In the order they were released: the registries' latest is this one.
  const releases = [
    { dir: previousRelease, version: previous.version },
    { dir: release, version },
  ];
  await publishRelease(registries, releases, scratch);
  goProxy = goProxyOf(releases, path.join(scratch, "goproxy"));
}, 30 * 60_000);

afterAll(async () => {
  await registries?.close();
  await plugins?.close();
  for (const user of users) user.remove();
  rmSync(scratch, { recursive: true, force: true });
});

test("the Upgrading section of docs/installation-configuration.md moves to this release and removes the previous one's plugin", () => {
  expect(addedLines("Pulumi YAML").map((line) => line.trim())).toEqual([`version: ${version}`]);
  expect(addedLines("Java").map((line) => line.trim())).toEqual([`<version>${version}</version>`]);
  expect(upgradeCommands("Java")).toEqual([
    `pulumi plugin install resource squarecloud ${version} --server ${PLUGIN_DOWNLOAD_URL}`,
  ]);
  expect(upgradeCommands("Removing old plugins")).toContain(
    `pulumi plugin rm resource squarecloud ${previous.version} --yes`,
  );
});

describe(`a TypeScript user on ${previous.version}`, () => {
  const dir = outsideDir("npm-user");
  let program: ProgramStack;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const installed = () =>
    (
      JSON.parse(readFileSync(path.join(dir, "node_modules", "pulumi-squarecloud", "package.json"), "utf8")) as {
        version: string;
      }
    ).version;

  test(`installs pulumi-squarecloud ${previous.version} by name from the npm registry and runs the program of docs/_index.md: up`, async () => {
    writeFileSync(path.join(dir, ".npmrc"), `registry=${registries.npm}\n`);
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "npm-user", private: true, main: "index.ts" }),
    );
    const packages = [
      `pulumi-squarecloud@${previous.version}`,
      pinnedPulumiSdk,
      pinnedDevDependency("typescript"),
      pinnedDevDependency("ts-node"),
      pinnedDevDependency("@types/node"),
    ];
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packages], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    expect(installed()).toBe(previous.version);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: npm-user\nruntime: nodejs\n");
    writeFileSync(path.join(dir, "index.ts"), examples.ts);
    const env = userEnv("npm-user", { PULUMI_HOME: path.join(dir, ".pulumi-home") });
    program = suite.keep(await userProjectStack(dir, { config: emulatorConfig(suite.emulator), env }));
    await firstUp(program);
  });

  test(`upgrades as the docs say to ${version}, whose registry page shows the package's metadata and README: a preview with no change, up, destroy`, async () => {
    await runUpgradeCommands("TypeScript", dir, { ...process.env, npm_config_loglevel: "error" });
    expect(installed()).toBe(version);
    const page = JSON.parse(
      execFileSync("npm", ["view", "pulumi-squarecloud", "--json", "--registry", registries.npm], {
        cwd: dir,
        encoding: "utf8",
      }),
    ) as Record<string, unknown>;
    expect(page).toMatchObject({
      name: "pulumi-squarecloud",
      version,
      license: manifest.license,
      description: manifest.description,
    });
    for (const field of ["keywords", "repository", "homepage"])
      expect({ field, value: page[field] }).toEqual({ field, value: manifest[field] });
    const packument = execFileSync("curl", ["-sf", `${registries.npm}pulumi-squarecloud`], { encoding: "utf8" });
    expect((JSON.parse(packument) as { readme: string }).readme).toContain("# pulumi-squarecloud");
    // The provider runs inside the package (Pulumi's dynamic provider): no squarecloud plugin.
    expect((await previewNoChange(program)).ranFrom).toEqual([]);
    await upThenDestroy(program);
  });
});

describe(`a Python user on ${previous.version}, and a YAML project pinned to it on the same machine`, () => {
  const dir = outsideDir("pypi-user");
  const yamlDir = outsideDir("yaml-user");
  const venvBin = path.join(dir, "venv", "bin");
  let user: UserMachine;
  let python: ProgramStack;
  let yaml: ProgramStack;
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(yamlDir, { recursive: true, force: true });
  });
  const metadata = () =>
    JSON.parse(
      execFileSync(
        path.join(venvBin, "python"),
        [
          "-c",
          "import importlib.metadata as m, json; d = m.metadata('pulumi_squarecloud'); print(json.dumps({k: d.get_all(k) for k in set(d.keys())}))",
        ],
        { encoding: "utf8" },
      ),
    ) as Record<string, string[]>;

  test(`installs pulumi_squarecloud ${previous.version} by name from the PyPI index and runs the program of docs/_index.md with no Node on PATH: up, the engine downloading ${previous.version}'s plugin`, async () => {
    execFileSync("python3", ["-m", "venv", path.join(dir, "venv")]);
    // The PyPI pulumi the language host is known to work with; the rest as pip resolves it.
    execFileSync(
      path.join(venvBin, "pip"),
      ["install", "--quiet", `pulumi_squarecloud==${previous.version}`, `pulumi==${hostPulumiVersion()}`],
      { env: { ...process.env, PIP_INDEX_URL: `${registries.pypi}simple/` }, stdio: ["ignore", "ignore", "inherit"] },
    );
    expect(metadata().Version).toEqual([previous.version]);
    // The virtualenv the package went into, then the language host's (its python and pulumi-language-python-exec).
    user = userWithoutNode("pypi", [], [venvBin, pythonBinDir()]);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: pypi-user\nruntime: python\n");
    writeFileSync(path.join(dir, "__main__.py"), examples.python);
    python = suite.keep(
      await userProjectStack(dir, { config: emulatorConfig(suite.emulator), env: userEnv(user.name, user.env) }),
    );
    await firstUp(python);
    expectPluginsDownloaded(user, [previous.version]);
  });

  test(`the YAML project, pinned to ${previous.version} (another account's), upgrades its version option as the docs say: the engine downloads ${version}'s plugin beside the other, a preview with no change, up`, async () => {
    const pinnedTo = (pin: string) => examples.yaml.replace(/^(\s+)version: \d+\.\d+\.\d+$/gm, `$1${pin}`);
    writeFileSync(path.join(yamlDir, "Pulumi.yaml"), pinnedTo(`version: ${previous.version}`));
    const config = emulatorConfig(suite.emulator, suite.emulator.accounts[1]);
    yaml = suite.keep(await userProjectStack(yamlDir, { config, env: userEnv(user.name, user.env) }));
    await firstUp(yaml);
    const [added] = addedLines("Pulumi YAML");
    writeFileSync(path.join(yamlDir, "Pulumi.yaml"), pinnedTo(added.trim()));
    expect(await previewNoChange(yaml)).toEqual(ranPlugin(version));
    const up = await yaml.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2 });
    expectPluginsDownloaded(user, [previous.version, version]);
  });

  test(`the Python program, still on ${previous.version}, keeps running ${previous.version}'s plugin, which reports its own version: a preview with no change; pulumi plugin ls lists both`, async () => {
    expect(await previewNoChange(python)).toEqual(ranPlugin(previous.version));
    expect(installedPlugins(user.env)).toEqual([previous.version, version]);
    expectPluginsDownloaded(user, [previous.version, version]);
  });

  test(`upgrades as the docs say to ${version}, with the package's metadata and README: a preview with no change on ${version}'s plugin, up, destroy; the previous plugin removed as the docs say`, async () => {
    await runUpgradeCommands("Python", dir, {
      ...process.env,
      PATH: `${venvBin}${path.delimiter}${process.env.PATH}`,
      PIP_INDEX_URL: `${registries.pypi}simple/`,
    });
    const upgraded = metadata();
    expect(upgraded.Version).toEqual([version]);
    expect(upgraded.Summary).toEqual([manifest.description]);
    expect([...(upgraded.License ?? []), ...(upgraded["License-Expression"] ?? [])]).toContain(manifest.license);
    expect(upgraded.Keywords?.join(",")).toContain("squarecloud");
    expect(upgraded["Description-Content-Type"]).toEqual(["text/markdown"]);
    expect(await previewNoChange(python)).toEqual(ranPlugin(version));
    await upThenDestroy(python);
    const destroyed = await yaml.stack.destroy();
    expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
    expectPluginsDownloaded(user, [previous.version, version]);
    await runUpgradeCommands("Removing old plugins", dir, { ...process.env, ...user.env });
    expect(installedPlugins(user.env)).toEqual([version]);
  });
});

describe(`a Go user on ${previous.version}`, () => {
  const dir = outsideDir("go-user");
  let releaseGoModule: (() => void) | undefined;
  let goEnv: Record<string, string>;
  let user: UserMachine;
  let program: ProgramStack;
  beforeAll(async () => {
    releaseGoModule = await lockOwnGoModule();
  });
  afterAll(() => {
    releaseGoModule?.();
    execFileSync("chmod", ["-R", "u+w", dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  const go = (...args: string[]) =>
    execFileSync("go", args, {
      cwd: dir,
      env: { ...process.env, ...goEnv },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
  const module = () => JSON.parse(go("list", "-m", "-json", GO_MODULE_PATH)) as { Version: string; Dir: string };

  test(`gets the SDK ${previous.version} by its module path and version from the module proxy and runs the program of docs/_index.md with no Node on PATH: up`, async () => {
    goEnv = {
      // The releases' modules from their folder; every other module from the proxy this machine uses.
      GOPROXY: `file://${goProxy},${process.env.GOPROXY ?? execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim()}`,
      // The checksum database knows a module once it is published; a rehearsal's is not.
      GONOSUMDB: GO_MODULE_PATH,
      ...REBUILT_GO_MODULE_ENV,
    };
    go("mod", "init", "example.com/go-user");
    go("get", `${GO_MODULE_PATH}/squarecloud@v${previous.version}`);
    writeFileSync(path.join(dir, "main.go"), examples.go);
    go("mod", "tidy");
    expect(module().Version).toBe(`v${previous.version}`);
    const goBinary = realpathSync(which("go", process.env.PATH ?? "")!);
    user = userWithoutNode("go", [path.join(goLanguageHostDir(), "pulumi-language-go")], [path.dirname(goBinary)]);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: go-user\nruntime: go\n");
    // Go's build cache stays the machine's, which scripts/test warms: a cold one compiles the Pulumi SDK for minutes.
    const GOCACHE = execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim();
    program = suite.keep(
      await userProjectStack(dir, {
        config: emulatorConfig(suite.emulator),
        env: { ...userEnv(user.name, user.env), ...goEnv, GOCACHE },
      }),
    );
    await firstUp(program);
  });

  test(`upgrades as the docs say to ${version}, the module with its LICENSE: a preview with no change on ${version}'s plugin, up, destroy`, async () => {
    await runUpgradeCommands("Go", dir, { ...process.env, ...goEnv });
    const upgraded = module();
    expect(upgraded.Version).toBe(`v${version}`);
    expect(upgraded.Dir.startsWith(repoRoot)).toBe(false);
    expect(readFileSync(path.join(upgraded.Dir, "LICENSE"), "utf8")).toContain("Apache License");
    expect(await previewNoChange(program)).toEqual(ranPlugin(version));
    await upThenDestroy(program);
    expectPluginsDownloaded(user, [previous.version, version]);
  });
});

describe(`a Java user, on ${version} from the start: Java was first released in 0.2.0`, () => {
  const dir = outsideDir("maven-user");
  /** The release's Maven repository as the publisher uploads it: the build's files and their signatures. */
  const signed = path.join(scratch, "maven");
  /** gpg's home with the rehearsal's key; short, under the system's temp folder, for gpg-agent's socket path. */
  const gnupgHome = mkdtempSync(path.join(tmpdir(), "gnupg-"));
  const gpgEnv = { ...process.env, GNUPGHOME: gnupgHome };
  const artifacts = [".jar", "-sources.jar", "-javadoc.jar", ".pom"].map(
    (suffix) => `${mavenArtifactDir(version)}/${JAVA_ARTIFACT_ID}-${version}${suffix}`,
  );
  let maven: MavenRepositoryServer;
  let user: UserMachine;
  afterAll(async () => {
    await maven?.close();
    execFileSync("gpgconf", ["--kill", "gpg-agent"], { env: gpgEnv });
    rmSync(gnupgHome, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  test("signs each artifact of the release's Maven repository with scripts/release/sign-maven, and gpg verifies every signature", () => {
    cpSync(path.join(release, "maven"), signed, { recursive: true });
    execFileSync(
      "gpg",
      [
        "--batch",
        "--passphrase",
        "",
        "--quick-generate-key",
        "Release Rehearsal <rehearsal@example.invalid>",
        "ed25519",
        "sign",
        "never",
      ],
      { env: gpgEnv, stdio: ["ignore", "ignore", "inherit"] },
    );
    execFileSync("bash", [path.join(repoRoot, "scripts", "release", "sign-maven"), signed], {
      env: gpgEnv,
      stdio: ["ignore", "ignore", "inherit"],
    });
    for (const file of artifacts) {
      const verified = execFileSync(
        "gpg",
        ["--batch", "--status-fd", "1", "--verify", path.join(signed, `${file}.asc`), path.join(signed, file)],
        { env: gpgEnv, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
      );
      expect({ file, good: /^\[GNUPG:\] GOODSIG /m.test(verified) }).toEqual({ file, good: true });
    }
  });

  test(
    "resolves the SDK by its coordinates from the release's Maven repository over HTTP, its pom with license, scm and developers",
    async () => {
      maven = await serveMavenRepository(signed);
      // The server in Maven Central's place, and a local repository of the user's own.
      const settings = mavenSettingsFor(path.join(scratch, "maven-user-settings"), maven.url);
      const localCopy = path.join(path.dirname(settings), "local", mavenArtifactDir(version));
      mkdirSync(path.join(dir, "src", "main", "java", "myproject"), { recursive: true });
      mkdirSync(path.join(dir, ".mvn"));
      writeFileSync(path.join(dir, ".mvn", "maven.config"), mavenConfig(settings));
      writeFileSync(path.join(dir, "pom.xml"), javaUserPom());
      writeFileSync(path.join(dir, "src", "main", "java", "myproject", "App.java"), JAVA_PROGRAM);
      // Asynchronously: the repository is served by this process, which must keep answering.
      await execFileAsync("mvn", ["--batch-mode", "--quiet", "compile"], { cwd: dir });
      for (const file of artifacts.filter((name) => !name.endsWith("-sources.jar") && !name.endsWith("-javadoc.jar")))
        expect(maven.log).toContain(`GET /${file} 200`);
      expect(readFileSync(path.join(localCopy, "_remote.repositories"), "utf8")).toContain(
        `${JAVA_ARTIFACT_ID}-${version}.jar>squarecloud-release=`,
      );
      const pom = readFileSync(path.join(localCopy, `${JAVA_ARTIFACT_ID}-${version}.pom`), "utf8");
      expect(pom).toMatch(/<license>\s*<name>Apache-2.0<\/name>/);
      expect(pom).toMatch(/<scm>\s*<connection>scm:git:https:\/\/github\.com\//);
      expect(pom).toMatch(/<developers>\s*<developer>\s*<name>/);
    },
    10 * 60_000,
  );

  test("installs the plugin as the docs say and runs its program with no Node on PATH: up, a preview with no change, destroy", async () => {
    // Nothing to upgrade from: the previous release has no Maven artifacts.
    expect(existsSync(path.join(previousRelease, "maven"))).toBe(false);
    // The host runs `mvn compile exec:java` on each engine run, with the system's mvn and java.
    user = userWithoutNode("maven", [path.join(javaLanguageHostDir(), "pulumi-language-java")], []);
    const env = userEnv(user.name, user.env);
    // The command of the docs' Upgrading, the same as Installation's.
    await runUpgradeCommands("Java", dir, { ...process.env, ...env });
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: maven-user\nruntime: java\n");
    const program = suite.keep(await userProjectStack(dir, { config: emulatorConfig(suite.emulator), env }));
    await firstUp(program);
    expect(await previewNoChange(program)).toEqual(ranPlugin(version));
    const destroy = await program.stack.destroy();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
    expectPluginsDownloaded(user, [version]);
  });
});

/** A user's Maven project: Pulumi's Java SDK and the provider's by their coordinates, as from Maven Central. */
function javaUserPom(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>maven-user</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <!-- The language host runs the program's main class through these. -->
    <mainClass>myproject.App</mainClass>
    <mainArgs/>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.pulumi</groupId>
      <artifactId>pulumi</artifactId>
      <version>${PULUMI_JAVA_VERSION}</version>
    </dependency>
    <dependency>
      <groupId>${JAVA_GROUP_ID}</groupId>
      <artifactId>${JAVA_ARTIFACT_ID}</artifactId>
      <version>${version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
        <configuration>
          <mainClass>\${mainClass}</mainClass>
          <commandlineArgs>\${mainArgs}</commandlineArgs>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;
}

/** The program of docs/_index.md, in Java. */
const JAVA_PROGRAM = `package myproject;

import com.pulumi.Pulumi;
import io.github.squarecloud.squarecloud.Database;
import io.github.squarecloud.squarecloud.DatabaseArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var sessions = new Database("sessions", DatabaseArgs.builder().name("sessions").type("redis").memory(512).version("7.4.5").build());
            ctx.export("sessionsId", sessions.id());
            ctx.export("sessionsUrl", sessions.connectionUrl());
        });
    }
}
`;
