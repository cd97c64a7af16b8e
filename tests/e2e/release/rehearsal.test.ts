import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import * as path from "node:path";
import { mavenArtifactDir } from "../../../scripts/build-java";
import { JAVA_ARTIFACT_ID, JAVA_GROUP_ID, PULUMI_JAVA_VERSION } from "../../../scripts/gen/java-pom";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/gen/repository";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
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
import { publishRelease, type Registries, startRegistries } from "./registries";

// A release published for real, on this machine: the artifacts of `npm run release` go to a local
// npm registry with `npm publish`, to a local PyPI index with `twine upload`, the Go module to a
// module proxy folder, the plugin archives behind an HTTP server that the engine downloads the
// plugin from, the Java SDK's Maven repository signed with a key made for the rehearsal and served
// over HTTP as Maven Central serves it. Then four new users, each in a directory of their own with
// a Pulumi home of their own and nothing of this clone on any path, install the package by name as
// the docs say and run its program against the emulator: up, a preview that must find no change,
// destroy. The Python, Go and Java users have no Node on PATH: the engine downloads the plugin
// archive of their machine from the URL their SDK names (the Java user's `pulumi plugin install`
// names it, as docs/installation-configuration.md says), once.

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Record<string, unknown> & {
  version: string;
  description: string;
  license: string;
};
const version = manifest.version;
const suite = emulatorSuite();
const scratch = outsideDir("rehearsal");
let release: string;
let registries: Registries;
let plugins: PluginServer;
const asset = archiveName(version, hostTarget());
const execFileAsync = promisify(execFile);
/** The machines of the users without Node (their Pulumi home, PATH and caches), removed at the end. */
const users: UserMachine[] = [];

/** The Example programs of the registry's page, docs/_index.md, by language. */
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

/** up (a stack and the database), then a preview that must find nothing to do, then destroy; returns up's outputs. */
async function lifecycle(program: ProgramStack): Promise<Record<string, unknown>> {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  const outputs = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value]));
  await program.stack.preview({ expectNoChanges: true });
  const destroy = await program.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
  return outputs;
}

/** The engine downloaded the archive of this machine once for `user`, into their Pulumi home. */
function expectPluginDownloaded(user: UserMachine): void {
  expect(existsSync(path.join(user.home, "plugins", `resource-squarecloud-v${version}`, "node"))).toBe(true);
  expect(plugins.log.filter((line) => line.startsWith(`GET /${user.name}/`))).toEqual([
    `GET /${user.name}/${asset} 200`,
  ]);
}

function expectDatabaseCreated(outputs: Record<string, unknown>): void {
  expect(outputs.sessionsId).toEqual(expect.any(String));
  expect(outputs.sessionsUrl).toMatch(/^redis:\/\//);
}

beforeAll(async () => {
  release = await sharedRelease();
  registries = await startRegistries(path.join(scratch, "registries"));
  plugins = await startPluginServer(release);
  await publishRelease(registries, release, version, scratch);
}, 20 * 60_000);

afterAll(async () => {
  await registries?.close();
  await plugins?.close();
  for (const user of users) user.remove();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a TypeScript user", () => {
  const dir = outsideDir("npm-user");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test(
    "installs pulumi-squarecloud by name from the npm registry, whose page shows the package's metadata and README",
    () => {
      writeFileSync(path.join(dir, ".npmrc"), `registry=${registries.npm}\n`);
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "npm-user", private: true, main: "index.ts" }),
      );
      const packages = [
        "pulumi-squarecloud",
        pinnedPulumiSdk,
        pinnedDevDependency("typescript"),
        pinnedDevDependency("ts-node"),
        pinnedDevDependency("@types/node"),
      ];
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packages], {
        cwd: dir,
        stdio: ["ignore", "ignore", "inherit"],
      });
      const installed = JSON.parse(
        readFileSync(path.join(dir, "node_modules", "pulumi-squarecloud", "package.json"), "utf8"),
      ) as { version: string };
      expect(installed.version).toBe(version);
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
    },
    10 * 60_000,
  );

  test("runs the program of docs/_index.md: up, a preview with no change, destroy", async () => {
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: npm-user\nruntime: nodejs\n");
    writeFileSync(path.join(dir, "index.ts"), examples.ts);
    const env = userEnv("npm-user", { PULUMI_HOME: path.join(dir, ".pulumi-home") });
    const program = suite.keep(await userProjectStack(dir, { config: emulatorConfig(suite.emulator), env }));
    expectDatabaseCreated(await lifecycle(program));
  });
});

describe("a Python user", () => {
  const dir = outsideDir("pypi-user");
  const venvBin = path.join(dir, "venv", "bin");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test(
    "installs pulumi_squarecloud by name from the PyPI index, with the package's metadata and README",
    () => {
      execFileSync("python3", ["-m", "venv", path.join(dir, "venv")]);
      // The PyPI pulumi the language host is known to work with; the rest as pip resolves it.
      execFileSync(
        path.join(venvBin, "pip"),
        ["install", "--quiet", "pulumi_squarecloud", `pulumi==${hostPulumiVersion()}`],
        {
          env: { ...process.env, PIP_INDEX_URL: `${registries.pypi}simple/` },
          stdio: ["ignore", "ignore", "inherit"],
        },
      );
      const script =
        "import importlib.metadata as m, json; d = m.metadata('pulumi_squarecloud'); print(json.dumps({k: d.get_all(k) for k in set(d.keys())}))";
      const metadata = JSON.parse(
        execFileSync(path.join(venvBin, "python"), ["-c", script], { encoding: "utf8" }),
      ) as Record<string, string[]>;
      expect(metadata.Version).toEqual([version]);
      expect(metadata.Summary).toEqual([manifest.description]);
      expect([...(metadata.License ?? []), ...(metadata["License-Expression"] ?? [])]).toContain(manifest.license);
      expect(metadata.Keywords?.join(",")).toContain("squarecloud");
      expect(metadata["Description-Content-Type"]).toEqual(["text/markdown"]);
    },
    10 * 60_000,
  );

  test("runs the program of docs/_index.md with no Node on PATH, the plugin downloaded by the engine: up, a preview with no change, destroy", async () => {
    // The virtualenv the package went into, then the language host's (its python and pulumi-language-python-exec).
    const user = userWithoutNode("pypi", [], [venvBin, pythonBinDir()]);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: pypi-user\nruntime: python\n");
    writeFileSync(path.join(dir, "__main__.py"), examples.python);
    const program = suite.keep(
      await userProjectStack(dir, {
        config: emulatorConfig(suite.emulator),
        env: userEnv(user.name, user.env),
      }),
    );
    expectDatabaseCreated(await lifecycle(program));
    expectPluginDownloaded(user);
  });
});

describe("a Go user", () => {
  const dir = outsideDir("go-user");
  let releaseGoModule: (() => void) | undefined;
  beforeAll(async () => {
    releaseGoModule = await lockOwnGoModule();
  });
  afterAll(() => {
    releaseGoModule?.();
    execFileSync("chmod", ["-R", "u+w", dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  let goEnv: Record<string, string>;

  test(
    "gets the SDK by its module path and version from the module proxy, with its LICENSE",
    () => {
      goEnv = {
        // This release's module from its folder; every other module from the proxy this machine uses.
        GOPROXY: `file://${path.join(release, "goproxy")},${process.env.GOPROXY ?? execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim()}`,
        // The checksum database knows a module once it is published; a rehearsal's is not.
        GONOSUMDB: GO_MODULE_PATH,
        ...REBUILT_GO_MODULE_ENV,
      };
      const go = (...args: string[]) =>
        execFileSync("go", args, {
          cwd: dir,
          env: { ...process.env, ...goEnv },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        });
      go("mod", "init", "example.com/go-user");
      go("get", `${GO_MODULE_PATH}/squarecloud@v${version}`);
      writeFileSync(path.join(dir, "main.go"), examples.go);
      go("mod", "tidy");
      const module = JSON.parse(go("list", "-m", "-json", GO_MODULE_PATH)) as { Version: string; Dir: string };
      expect(module.Version).toBe(`v${version}`);
      expect(module.Dir.startsWith(repoRoot)).toBe(false);
      expect(readFileSync(path.join(module.Dir, "LICENSE"), "utf8")).toContain("Apache License");
    },
    10 * 60_000,
  );

  test("runs the program of docs/_index.md with no Node on PATH, the plugin downloaded by the engine: up, a preview with no change, destroy", async () => {
    const go = realpathSync(which("go", process.env.PATH ?? "")!);
    const user = userWithoutNode("go", [path.join(goLanguageHostDir(), "pulumi-language-go")], [path.dirname(go)]);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: go-user\nruntime: go\n");
    mkdirSync(path.join(dir, ".state"), { recursive: true });
    // Go's build cache stays the machine's, which scripts/test warms: a cold one compiles the Pulumi SDK for minutes.
    const GOCACHE = execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim();
    const program = suite.keep(
      await userProjectStack(dir, {
        config: emulatorConfig(suite.emulator),
        env: { ...userEnv(user.name, user.env), ...goEnv, GOCACHE },
      }),
    );
    expectDatabaseCreated(await lifecycle(program));
    expectPluginDownloaded(user);
  });
});

describe("a Java user", () => {
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
    // The host runs `mvn compile exec:java` on each engine run, with the system's mvn and java.
    user = userWithoutNode("maven", [path.join(javaLanguageHostDir(), "pulumi-language-java")], []);
    const env = userEnv(user.name, user.env);
    // Asynchronously: the plugin server answering the download is this process.
    await execFileAsync(
      path.join(engineDir(), "pulumi"),
      ["plugin", "install", "resource", "squarecloud", version, "--server", PLUGIN_DOWNLOAD_URL],
      { env: { ...process.env, ...env } },
    );
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: maven-user\nruntime: java\n");
    const program = suite.keep(await userProjectStack(dir, { config: emulatorConfig(suite.emulator), env }));
    expectDatabaseCreated(await lifecycle(program));
    expectPluginDownloaded(user);
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
