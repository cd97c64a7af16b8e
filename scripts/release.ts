import { execFileSync, execSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { buildMavenArtifacts } from "./build-java";
import { checksumsFileName, writeChecksums } from "./release/checksums";
import { writeGoModuleVersion } from "./release/go-module";
import { releaseNotes } from "./release/notes";
import { reproducibleTarGz } from "./release/reproducible";
import { checkOneVersion } from "./release/versions";
import { GO_MODULE_PATH } from "./gen/schema";

/**
 * `npm run release -- --out <dir> [--version <v>]`: every artifact of a release, built from the
 * commit checked out (never from uncommitted changes) into dir, which must be new or empty:
 *
 *   pulumi-resource-squarecloud-v<version>[-<os>-<arch>].tar.gz   the plugin archives of build:plugin
 *   squarecloud-emulator-v<version>-<os>-<arch>.tar.gz            the emulator's archives of build:emulator
 *   pulumi-squarecloud-<version>.tgz                              the npm package
 *   pulumi_squarecloud-<version>-py3-none-any.whl, .tar.gz        the Python wheel and sdist
 *   goproxy/<module>/@v/v<version>.{info,mod,zip}, list            the Go SDK as a module proxy serves it
 *   maven/io/github/squarecloud/pulumi-squarecloud/<version>/     the Java SDK as a Maven repository holds it:
 *     pulumi-squarecloud-<version>{.jar,-sources.jar,-javadoc.jar,.pom} and their .md5 and .sha1
 *   schema.json                                                   the package schema
 *   release-notes.md                                              the version's section of CHANGELOG.md
 *   pulumi-squarecloud_<version>_checksums.txt                    sha256 of all of the above
 *
 * package.json's version is the one source: `--version` (a pre-release such as 0.2.0-rc.1) writes
 * it there in the build's copy, and `npm run gen` there derives the schema and the Python, Go and
 * Java SDKs from it, as it does for a release. The same commit gives the same bytes: every time is
 * SOURCE_DATE_EPOCH (the commit's time unless set), archives are written in a fixed order, and
 * the copy sits at a fixed place beside the clone so no path of the machine gets inside.
 */

const root = path.join(__dirname, "..", "..");
/**
 * The build's copy of the commit, one per run, always two levels below the clone: what a bundler
 * writes of a path relative to it is then the same on every run and every machine.
 */
function newStage(): string {
  mkdirSync(path.join(root, ".release-stage"), { recursive: true });
  return mkdtempSync(path.join(root, ".release-stage", "build-"));
}

interface Options {
  out: string;
  version?: string;
}

function parseArgs(argv: string[]): Options {
  const options: Partial<Options> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--out") options.out = path.resolve(value);
    else if (flag === "--version") options.version = value;
    else throw new Error(`unknown argument ${flag}: npm run release -- --out <dir> [--version <version>]`);
  }
  if (options.out === undefined)
    throw new Error("npm run release -- --out <dir> [--version <version>]: --out is required");
  if (options.version !== undefined && !SEMVER.test(options.version))
    throw new Error(`--version ${options.version} is not a semantic version (for example 0.2.0 or 0.2.0-rc.1)`);
  return options as Options;
}

/** Semantic versioning 2.0's grammar, build metadata left out (registries drop it). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?$/;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 1 << 28,
  });
}

function say(message: string): void {
  console.error(`[release] ${message}`);
}

/** The commit, copied into the stage as `git archive` gives it, with the clone's node_modules. */
function stageCommit(stage: string): { commit: string; epoch: number } {
  const commit = run("git", ["rev-parse", "HEAD"], root).trim();
  if (run("git", ["status", "--porcelain", "--untracked-files=no"], root).trim() !== "")
    say(`uncommitted changes are left out: this builds the commit ${commit}`);
  const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? run("git", ["log", "-1", "--format=%ct", commit], root).trim());
  execSync(`git archive --format=tar ${commit} | tar -x -C "${stage}"`, { cwd: root, stdio: "inherit" });
  // Relative, so bundlers that follow it name the same `../node_modules/...` on every machine.
  symlinkSync(path.join("..", "..", "node_modules"), path.join(stage, "node_modules"));
  return { commit, epoch };
}

/** Sets the version in the stage's package.json, the one place it is written. */
function setVersion(stage: string, version: string): void {
  const file = path.join(stage, "package.json");
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace(/^(\s*"version":\s*)"[^"]*"/m, `$1"${version}"`));
}

function packageVersion(stage: string): string {
  return (JSON.parse(readFileSync(path.join(stage, "package.json"), "utf8")) as { version: string }).version;
}

function compile(stage: string): void {
  run(path.join(stage, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], stage);
}

function main(stage: string): void {
  const options = parseArgs(process.argv.slice(2));
  if (existsSync(options.out) && readdirSync(options.out).length > 0)
    throw new Error(`${options.out} is not empty: a release is written into a new or empty directory`);
  mkdirSync(options.out, { recursive: true });
  const { commit, epoch } = stageCommit(stage);
  process.env.SOURCE_DATE_EPOCH = String(epoch); // read by the Python build backend and by the plugin's build
  say(`building ${commit} (SOURCE_DATE_EPOCH=${epoch})`);
  compile(stage);
  if (options.version !== undefined && options.version !== packageVersion(stage)) {
    setVersion(stage, options.version);
    say(`generating the schema and the SDKs of ${options.version}`);
    run("node", ["dist/scripts/gen/index.js"], stage);
    compile(stage);
  }
  const version = packageVersion(stage);
  const out = options.out;

  for (const [what, script] of [
    ["the plugin archives", "build-plugin"],
    ["the emulator's archives", "build-emulator"],
  ]) {
    say(what);
    const dir = path.join(stage, `.${script}`);
    run("node", [`dist/scripts/${script}.js`, dir], stage);
    // Written reproducibly already (fixed times, order and owners): taken as they are.
    for (const archive of readdirSync(dir).filter((file) => file.endsWith(".tar.gz"))) {
      copyFileSync(path.join(dir, archive), path.join(out, archive));
    }
  }

  say("the npm package");
  run("npm", ["pack", "--silent", "--pack-destination", out], stage);

  say("the Python wheel and sdist");
  const python = path.join(stage, ".python");
  const { buildSdist, buildWheel } = require(
    path.join(stage, "dist", "scripts", "build-python.js"),
  ) as typeof import("./build-python");
  const wheel = buildWheel(python);
  copyFileSync(wheel, path.join(out, path.basename(wheel)));
  const sdist = buildSdist(python);
  reproducibleTarGz(sdist, path.join(out, path.basename(sdist)), epoch);

  say("the Go module");
  writeGoModuleVersion(
    path.join(stage, "sdk", "go"),
    GO_MODULE_PATH,
    version,
    epoch,
    path.join(out, "goproxy"),
    path.join(stage, "LICENSE"),
  );

  say("the Java SDK's Maven artifacts");
  buildMavenArtifacts(path.join(stage, "sdk", "java"), version, epoch, path.join(out, "maven"));

  copyFileSync(path.join(stage, "provider", "plugin", "schema.json"), path.join(out, "schema.json"));
  writeFileSync(
    path.join(out, "release-notes.md"),
    releaseNotes(readFileSync(path.join(stage, "CHANGELOG.md"), "utf8"), version),
  );
  checkOneVersion(out, GO_MODULE_PATH, version);
  writeChecksums(out, checksumsFileName(version));
  say(`${version} written to ${out}`);
}

if (require.main === module) {
  const stage = newStage();
  try {
    main(stage);
  } catch (err) {
    console.error(`release: ${(err as Error).message}`);
    process.exitCode = 1;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
