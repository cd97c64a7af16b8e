import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
import { archiveName, hostTarget } from "../../../scripts/plugin-archive";
import { engineDir } from "../../install-script";
import { lockOwnGoModule, REBUILT_GO_MODULE_ENV } from "../harness/go-module-lock";
import { fencedBlocks } from "../../doc-blocks";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { goLanguageHostDir, pythonBinDir, repoRoot } from "../harness/engine";
import { outsideDir, pinnedDevDependency, pinnedPulumiSdk } from "../harness/outside-project";
import { type PluginServer, startPluginServer } from "../harness/plugin-server";
import { type ProgramStack, userProjectStack } from "../harness/stack";
import { type UserMachine, userMachine, which } from "../harness/user-machine";
import { sharedRelease } from "./release";
import { publishRelease, type Registries, startRegistries } from "./registries";

// A release published for real, on this machine: the artifacts of `npm run release` go to a local
// npm registry with `npm publish`, to a local PyPI index with `twine upload`, the Go module to a
// module proxy folder, the plugin archives behind an HTTP server that the engine downloads the
// plugin from. Then three new users, each in a directory of their own with a Pulumi home of their
// own and nothing of this clone on any path, install the package by name as docs/_index.md says
// and run its program against the emulator: up, a preview that must find no change, destroy. The
// Python and Go users have no Node on PATH: the engine downloads the plugin archive of their
// machine from the URL their SDK names, once.

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
      const pulumi = execFileSync(
        path.join(pythonBinDir(), "python"),
        ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"],
        { encoding: "utf8" },
      ).trim();
      execFileSync(path.join(venvBin, "pip"), ["install", "--quiet", "pulumi_squarecloud", `pulumi==${pulumi}`], {
        env: { ...process.env, PIP_INDEX_URL: `${registries.pypi}simple/` },
        stdio: ["ignore", "ignore", "inherit"],
      });
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
