import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import * as path from "node:path";
import { packageVersion } from "../../provider/client/version";
import { GO_MODULE_PATH } from "../../scripts/gen/repository";
import { writeGoModuleVersion } from "../../scripts/release/go-module";
import { lockOwnGoModule, REBUILT_GO_MODULE_ENV } from "./harness/go-module-lock";
import { fencedBlocks, readDoc } from "../doc-blocks";
import { engineDir, repoRoot } from "../install-script";
import { archiveDir, builtEmulatorArchive } from "../plugin-archives";
import { freePorts } from "./harness/free-ports";
import { outsideDir, packInto, pinnedPulumiSdk } from "./harness/outside-project";
import { type PluginServer, startPluginServer } from "./harness/plugin-server";
import { pythonSdkBuild } from "./harness/stack";
import { javaLanguageHostDir } from "./harness/engine";
import { mavenConfig, mavenRelease } from "./harness/maven-release";
import { which } from "./harness/user-machine";

// README's first hour, as a new user lives it: for each language, the `sh` blocks of "The first
// hour" in the file's order (those before the languages, the language's own, those after) run as
// written in one shell, in a fresh home outside the repository. The block marked
// `<!-- first-hour: second terminal -->` (the emulator) runs beside it, as in a second terminal,
// and the first shell goes on once the emulator says it is ready.
//
// Every difference from what the reader types is in substitutions() (text replaced in the blocks)
// and userEnvironment (the shell's environment), below: what the README downloads from the
// release page and the registries, which are not published yet, comes from this checkout's builds.

const version = packageVersion();
const RELEASE = `https://github.com/squarecloud/pulumi-squarecloud/releases/download/v${version}`;
const EMULATOR_READY = "Ctrl+C to stop.";
/** Only stops a hung path: a cold Go build on a busy two-core machine alone takes minutes. */
const PATH_TIMEOUT_MS = 600_000;

interface Built {
  tarball: string;
  wheel: string;
  goProxy: string;
  /** The settings.xml through which Maven resolves this checkout's Java SDK. */
  mavenSettings: string;
  plugins: PluginServer;
  /** Each language's emulator ports: platform, blob. */
  ports: Record<string, number[]>;
}

/** [what the README says, what runs here, why]: each must occur in the blocks, so the table cannot go stale. */
function substitutions(built: Built, language: string): Array<[string, string, string]> {
  const [platform, blob] = built.ports[language] ?? [4580, 4581];
  return [
    ["curl -fsSL https://get.pulumi.com | sh", "true", "the engine scripts/install-pulumi built is on PATH"],
    [
      "pulumi login --local",
      'pulumi login "file://$HOME"',
      "the stacks in the fresh home: --local means the home of the system's user, whatever HOME says",
    ],
    [
      `curl -fsSL ${RELEASE}/squarecloud-emulator-v${version}-linux-amd64.tar.gz`,
      `cat ${builtEmulatorArchive()}`,
      "the release's emulator for this machine: this checkout's build (npm run build:emulator)",
    ],
    [
      `npm install pulumi-squarecloud ${pinnedPulumiSdk} `,
      `npm install ${built.tarball} ${pinnedPulumiSdk} `,
      "the npm package: its tarball; @pulumi/pulumi as README pins it, the release the tests run (later ones declare Node 22)",
    ],
    ["pip install pulumi_squarecloud", `pip install ${built.wheel}`, "PyPI's package: this checkout's wheel"],
    [
      "https://github.com/squarecloud/pulumi-squarecloud/tree/main/templates/squarecloud-java",
      path.join(repoRoot, "templates", "squarecloud-java"),
      "the Java template: this checkout's",
    ],
    [
      "--generate-only --yes",
      `--generate-only --yes && mkdir .mvn && printf '%s' '${mavenConfig(built.mavenSettings)}' > .mvn/maven.config`,
      "Maven Central's SDK: this checkout's, deployed to a folder that the project's Maven settings name",
    ],
    ["127.0.0.1:4580", `127.0.0.1:${platform}`, "the emulator's ports: free ones (userEnvironment starts it there)"],
    ["127.0.0.1:4581", `127.0.0.1:${blob}`, "the same, for the blob API"],
  ];
}

/**
 * The shell's environment: a fresh home; on PATH the engine (with its language hosts beside it),
 * Node, Go, Python and the system's programs; this machine's warm caches and tool settings.
 */
function userEnvironment(home: string, built: Built, language: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(PULUMI_|SQUARECLOUD_)/.test(key)),
  );
  const tool = (command: string) => path.dirname(realpathSync(which(command, process.env.PATH ?? "")!));
  const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  const goEnv = (name: string) => execFileSync("go", ["env", name], { encoding: "utf8" }).trim();
  const realHome = process.env.HOME ?? "/root";
  return {
    ...inherited,
    HOME: home,
    PATH: [
      engineDir(),
      javaLanguageHostDir(),
      tool("node"),
      tool("go"),
      path.dirname(python),
      "/usr/local/bin",
      "/usr/bin",
      "/bin",
    ].join(":"),
    // The caches and settings of this machine's user, which the fresh home would hide.
    npm_config_cache: path.join(realHome, ".npm"),
    npm_config_userconfig: path.join(realHome, ".npmrc"),
    // From that cache without asking the registry again, as the other e2e install.
    npm_config_prefer_offline: "true",
    PIP_CACHE_DIR: path.join(realHome, ".cache", "pip"),
    GOENV: goEnv("GOENV"),
    GOMODCACHE: goEnv("GOMODCACHE"),
    GOCACHE: goEnv("GOCACHE"),
    // The Go module as the module proxy will serve it, and not yet in the public checksum database.
    GOPROXY: `file://${built.goProxy},${goEnv("GOPROXY")}`,
    GONOSUMDB: GO_MODULE_PATH,
    ...REBUILT_GO_MODULE_ENV,
    // The plugin the YAML program, the wheel and the module name: this checkout's archives.
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: built.plugins.overridesFor(language),
    // Pulumi's own home (plugins, credentials) in the fresh home too, for the same reason.
    PULUMI_HOME: path.join(home, ".pulumi"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    SQUARECLOUD_EMULATOR_PLATFORM_PORT: String(built.ports[language][0]),
    SQUARECLOUD_EMULATOR_BLOB_PORT: String(built.ports[language][1]),
  };
}

interface Block {
  /** The `### ` heading above it, or undefined before the first. */
  language?: string;
  secondTerminal: boolean;
  code: string;
}

/** The `sh` blocks of the README's "The first hour", each with the subsection it is in. */
function firstHourBlocks(): Block[] {
  const lines = readDoc("README.md").split("\n");
  const first = lines.indexOf("## The first hour");
  const end = lines.findIndex((line, i) => i > first && line.startsWith("## "));
  const headingAt = (line: number) =>
    lines
      .slice(first, line)
      .filter((l) => l.startsWith("### "))
      .pop()
      ?.slice(4);
  return fencedBlocks("README.md")
    .filter((block) => block.language === "sh" && block.line > first && block.line < end)
    .map((block) => ({
      language: headingAt(block.line - 1),
      secondTerminal: lines[block.line - 2] === "<!-- first-hour: second terminal -->",
      code: block.code,
    }));
}

const LANGUAGES = ["TypeScript", "YAML", "Python", "Go", "Java"];
const AFTER = "Then, in any of them";

/** One language's path as one script: the emulator's block started beside the rest, the shell waiting for its ready line. */
function pathScript(blocks: Block[], language: string, table: Array<[string, string, string]>): string {
  const mine = blocks.filter((b) => b.language === undefined || b.language === language || b.language === AFTER);
  const lines = ["set -eo pipefail", 'trap \'[ -z "${emulator:-}" ] || kill "$emulator"\' EXIT'];
  for (const block of mine) {
    const code = table.reduce((text, [from, to]) => text.split(from).join(to), block.code);
    if (!block.secondTerminal) {
      lines.push(code);
      continue;
    }
    lines.push(
      `(${code.trim()}) >"$HOME/emulator.log" 2>&1 &`,
      "emulator=$!",
      `until grep -qF ${JSON.stringify(EMULATOR_READY)} "$HOME/emulator.log"; do`,
      '  kill -0 "$emulator" 2>/dev/null || { cat "$HOME/emulator.log"; exit 1; }',
      "  sleep 0.1",
      "done",
    );
  }
  return lines.join("\n");
}

/** Runs a script in its own process group (the emulator's too), then ends the group; resolves with what it printed and its exit code. */
function runScript(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const endGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The group has ended already.
      }
    };
    const timer = setTimeout(endGroup, PATH_TIMEOUT_MS);
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      endGroup();
      resolve({ output, code });
    });
  });
}

const scratch = outsideDir("first-hour");
const blocks = firstHourBlocks();
let building: Promise<Built> | undefined;

/**
 * What the paths install, built once for the four, which run at the same time (most of each is
 * waiting on installs and on the engine). The first path to start builds it, outside any hook:
 * jest starts concurrent tests without waiting for beforeAll.
 */
function build(): Promise<Built> {
  building ??= (async () => {
    const goProxy = path.join(scratch, "goproxy");
    writeGoModuleVersion(
      path.join(repoRoot, "sdk", "go"),
      GO_MODULE_PATH,
      version,
      0,
      goProxy,
      path.join(repoRoot, "LICENSE"),
    );
    const ports = await freePorts(2 * LANGUAGES.length);
    return {
      mavenSettings: mavenRelease(path.join(scratch, "maven")),
      tarball: packInto(scratch),
      wheel: (await pythonSdkBuild()).wheel,
      goProxy,
      plugins: await startPluginServer(archiveDir),
      ports: Object.fromEntries(LANGUAGES.map((language, i) => [language, ports.slice(2 * i, 2 * i + 2)])),
    };
  })();
  return building;
}

afterAll(async () => {
  await (await building)?.plugins.close();
  rmSync(scratch, { recursive: true, force: true });
});

test("README's first hour has the shared blocks, the emulator's, one per language and the last", () => {
  expect(blocks.map((b) => (b.secondTerminal ? "second terminal" : (b.language ?? "start")))).toEqual([
    "start",
    "second terminal",
    ...LANGUAGES,
    AFTER,
  ]);
  const text = blocks.map((b) => b.code).join("");
  for (const [from] of substitutions({ ports: {} } as Built, ""))
    expect({ from, found: text.includes(from) }).toEqual({ from, found: true });
});

test.concurrent.each(LANGUAGES)(
  "%s: from nothing to a first up, each block as written",
  async (language) => {
    const built = await build();
    const home = path.join(scratch, `home-${language.toLowerCase()}`);
    mkdirSync(home);
    const script = pathScript(blocks, language, substitutions(built, language));
    const releaseGoModule = language === "Go" ? await lockOwnGoModule() : undefined;
    const { output, code } = await runScript(script, home, userEnvironment(home, built, language)).finally(
      releaseGoModule,
    );
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining("+ 2 created") });
    // The template's program names its outputs after the database; the README's, `url`.
    const secretOutput = language === "Java" ? "cacheUrl" : "url";
    expect(output).toMatch(new RegExp(`Outputs:[\\s\\S]*\\b${secretOutput}\\s*: \\[secret\\]`));
    // YAML, Python, Go and Java programs ran on the plugin archive the engine downloaded; TypeScript on no plugin.
    const downloads = built.plugins.log.filter((line) => line.startsWith(`GET /${language}/`));
    expect(downloads).toHaveLength(language === "TypeScript" ? 0 : 1);
  },
  PATH_TIMEOUT_MS + 120_000,
);
