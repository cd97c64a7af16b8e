import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { type ConfigMap, LocalWorkspace, type ProjectSettings, Stack } from "@pulumi/pulumi/automation";
import { buildWheel, projectPython } from "../../../scripts/build-python";
import { takeDirLock } from "../../../scripts/lib/dir-lock";
import { filesUnder, PYTHON_SDK_DIR } from "../../../scripts/gen/language-sdks";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
import { builtArchive } from "../../plugin-archives";
import { compileJavaPrograms, JAVA_PROGRAM_JAR, SHORT_RUN_JVM_OPTIONS } from "./java-program";
import { checkpointPath, localRunResults } from "./run-results";
import { localConfig } from "./stack-config";
import {
  goLanguageHostDir,
  javaLanguageHostDir,
  pulumiEngine,
  pythonBinDir,
  repoRoot,
  yamlLanguageHostDir,
} from "./engine";
import { npmInstall, outsideDir, pinnedPulumiSdk, vendorTarball } from "./outside-project";
import { which } from "./user-machine";

/** Scratch space inside the repo, so programs and provider processes resolve node_modules. */
const scratchRoot = path.join(repoRoot, ".pulumi-e2e");
const passphrase = "e2e-passphrase";

export interface ProgramStackOptions {
  /** A program directory under tests/e2e/programs (run from its compiled JS). */
  program: string;
  config?: ConfigMap;
  /** Extra environment for the CLI and the processes it starts (provider config fallbacks). */
  env?: Record<string, string>;
}

export interface ProgramStack {
  stack: Stack;
  workDir: string;
  /** Every file the backend wrote (checkpoint, backups, history), for plaintext-leak checks. */
  backendText(): string;
  /** The stack's checkpoint file as stored on disk (what `pulumi stack export` reads; secrets as ciphertext). */
  checkpoint(): string;
  /** The resources of the checkpoint as stored on disk (secrets as ciphertext). */
  resources(): Promise<StateResource[]>;
  /** Destroys what is left and removes the scratch directories. */
  dispose(): Promise<void>;
}

/** The key that marks a secret in state; beside it, `ciphertext` holds the encrypted value. */
export { SIG_KEY as SECRET_SIG } from "../../../provider/signatures";

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A fresh project and stack for one test, running a compiled program of tests/e2e/programs: its
 * own work directory and `file://` backend, the real CLI, update checks off. Each stack is
 * independent, so test files can run in parallel.
 */
export async function programStack(options: ProgramStackOptions): Promise<ProgramStack> {
  const workDir = scratchDir(options.program);
  // The project is a package of its own whose entry point loads the compiled program: the Node
  // runtime takes the nearest package.json's `main` as the program, which must not be the repo's.
  const programDir = path.join(repoRoot, "dist", "tests", "e2e", "programs", options.program);
  writeFileSync(
    path.join(workDir, "package.json"),
    JSON.stringify({ name: path.basename(workDir), private: true, main: "index.js" }),
  );
  writeFileSync(path.join(workDir, "index.js"), `module.exports = require(${JSON.stringify(programDir)});\n`);
  const projectSettings = { name: options.program, runtime: { name: "nodejs", options: { typescript: false } } };
  return openStack(workDir, options.program, options, { projectSettings });
}

/**
 * A stack of a Pulumi project of this repository (its Pulumi.yaml, index.ts and files), copied as
 * it is and run the way users run it: TypeScript, the package resolved by its name. A stack
 * config file copied along (`Pulumi.<stackName>.yaml`) keeps its settings and passphrase salt.
 */
export async function projectStack(
  sourceDir: string,
  options: Omit<ProgramStackOptions, "program"> & { stackName?: string } = {},
): Promise<ProgramStack> {
  const workDir = scratchDir(path.basename(sourceDir));
  cpSync(sourceDir, workDir, { recursive: true });
  return openStack(workDir, projectName(workDir), options, { stackName: options.stackName });
}

/**
 * A stack of an example as a user's repository holds it: copied outside this repository with the
 * tarball under vendor/, where its package.json names it, and installed from that package.json
 * alone. The program compiles with the example's own TypeScript and tsconfig.json and loads the
 * package from the example's node_modules.
 */
export async function outsideExampleStack(
  example: string,
  tarball: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<ProgramStack> {
  const workDir = outsideDir(example);
  cpSync(path.join(repoRoot, "examples", example), workDir, { recursive: true });
  return outsideProjectStack(workDir, tarball, options);
}

/**
 * A stack of a project outside this repository (its Pulumi.yaml, package.json and tsconfig.json in
 * workDir), installed as README says: the tarball under vendor/, then `npm install`.
 */
export async function outsideProjectStack(
  workDir: string,
  tarball: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<ProgramStack> {
  mkdirSync(path.join(workDir, ".state"));
  vendorTarball(tarball, workDir);
  // Within the project's range, the SDK of the engine the tests drive.
  await npmInstall(workDir, [pinnedPulumiSdk]);
  return openStack(workDir, projectName(workDir), options);
}

/**
 * A stack of a project a user set up in workDir, outside this repository, with its packages
 * installed there by the user's own commands: run as it is, the options' env giving the PATH of
 * its language host.
 */
export async function userProjectStack(
  workDir: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<ProgramStack> {
  mkdirSync(path.join(workDir, ".state"), { recursive: true });
  return openStack(workDir, projectName(workDir), options);
}

/**
 * A stack of a Pulumi YAML project of tests/e2e/yaml-programs (`runtime: yaml`), copied as it is
 * and run by the YAML language host of scripts/install-yaml-host.
 */
export async function yamlProjectStack(
  project: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<ProgramStack> {
  return projectStack(path.join(repoRoot, "tests", "e2e", "yaml-programs", project), withYamlHost(options));
}

export interface YamlStack extends ProgramStack {
  setProgram(next: Record<string, unknown>): void;
  setProgramYaml(text: string): void;
}

/**
 * A stack of a Pulumi YAML program (runtime yaml) using the native plugin of this repository.
 * `program` is the project file's content below its name and runtime (resources, outputs, ...),
 * written as JSON, which YAML reads as it is; `setProgram` rewrites it between operations.
 */
export async function yamlStack(
  label: string,
  program: Record<string, unknown>,
  options: Omit<ProgramStackOptions, "program"> & { installedPlugin?: boolean } = {},
): Promise<YamlStack> {
  const workDir = scratchDir(label);
  // This build's plugin by path (nativePluginDir), unless the test installed it from its tarball.
  const pluginDir = options.installedPlugin ? undefined : await nativePluginDir();
  const plugins = pluginDir ? { plugins: { providers: [{ name: "squarecloud", path: pluginDir }] } } : {};
  const header = { name: label, runtime: "yaml", ...plugins };
  const setProgram = (next: Record<string, unknown>) =>
    writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify({ ...header, ...next }, null, 2));
  // YAML as `pulumi import` writes it (resources: ...), below the same project lines in YAML.
  const setProgramYaml = (text: string) => {
    const plugin = pluginDir
      ? `plugins:\n  providers:\n    - name: squarecloud\n      path: ${JSON.stringify(pluginDir)}\n`
      : "";
    writeFileSync(path.join(workDir, "Pulumi.yaml"), `name: ${label}\nruntime: yaml\n${plugin}${text}`);
  };
  setProgram(program);
  return { ...(await openStack(workDir, label, withYamlHost(options))), setProgram, setProgramYaml };
}

export interface PythonStack extends ProgramStack {
  /** Rewrites the program (__main__.py) between operations. */
  setProgram(source: string): void;
}

/**
 * A stack of an example of examples/ written in Python, copied outside this repository and run as
 * a user runs it: with `venvBin` (a virtualenv's bin/ where the example's packages are installed)
 * first on PATH and the Python language host after it.
 */
export async function outsidePythonExampleStack(
  example: string,
  venvBin: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<ProgramStack> {
  const workDir = outsideDir(example);
  cpSync(path.join(repoRoot, "examples", example), workDir, { recursive: true });
  mkdirSync(path.join(workDir, ".state"));
  return openStack(workDir, projectName(workDir), withPythonHost(options, [venvBin]));
}

export interface PythonSdkBuild {
  /** The wheel of `npm run build:python`, as users install it. */
  wheel: string;
  /** For PYTHONPATH: the wheel installed, with the distribution metadata the SDK reads its version from. */
  site: string;
}

let pythonSdk: Promise<PythonSdkBuild> | undefined;

/**
 * The generated Python SDK's wheel and its installed copy, built once for every Python test file
 * and run: kept under the hash of what the build reads, so a change of the SDK makes a new one. The
 * first file to ask builds it (seconds of CPU) under a lock, which a file asking meanwhile waits on.
 */
export function pythonSdkBuild(): Promise<PythonSdkBuild> {
  pythonSdk ??= (async () => {
    const dir = await builtOnce("python-sdk-", pythonSdkHash(), (partial) => {
      const wheel = buildWheel(path.join(partial, "wheel"));
      execFileSync(
        projectPython(),
        ["-m", "pip", "install", "--quiet", "--no-deps", "--target", path.join(partial, "site"), wheel],
        { stdio: ["ignore", "inherit", "inherit"] },
      );
    });
    const [wheel] = readdirSync(path.join(dir, "wheel"));
    return { wheel: path.join(dir, "wheel", wheel), site: path.join(dir, "site") };
  })();
  return pythonSdk;
}

/**
 * The scratch directory `<prefix><key>`, which `build` fills (given the directory to write and the
 * path it will have) once for every test process: under a lock, which a process asking meanwhile
 * waits on, the directories of other keys removed first. Whole or absent: a build that failed
 * half-way leaves only the partial directory, removed next time.
 */
async function builtOnce(prefix: string, key: string, build: (partial: string, dir: string) => void): Promise<string> {
  const dir = path.join(scratchRoot, `${prefix}${key}`);
  mkdirSync(scratchRoot, { recursive: true });
  const unlock = await takeDirLock(path.join(scratchRoot, `.${prefix}lock`));
  try {
    if (!existsSync(dir)) {
      for (const stale of readdirSync(scratchRoot).filter((entry) => entry.startsWith(prefix)))
        rmSync(path.join(scratchRoot, stale), { recursive: true, force: true });
      const partial = `${dir}-partial`;
      mkdirSync(partial);
      build(partial, dir);
      renameSync(partial, dir);
    }
  } finally {
    unlock();
  }
  return dir;
}

/** The hash of the SDK's files, the build's code and the Python that installs it. */
function pythonSdkHash(): string {
  const sdkDir = path.join(repoRoot, PYTHON_SDK_DIR);
  const hash = createHash("sha256")
    .update(projectPython())
    .update(readFileSync(require.resolve("../../../scripts/build-python")));
  for (const file of filesUnder(sdkDir)) hash.update(`${file}\0`).update(readFileSync(path.join(sdkDir, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * A stack of a Pulumi Python program (runtime python) using the native plugin of this repository
 * and the Python SDK generated in sdk/python (`pulumi_squarecloud`). `source` is the program,
 * __main__.py.
 */
export async function pythonStack(
  label: string,
  source: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<PythonStack> {
  const workDir = scratchDir(label);
  const project = {
    name: label,
    runtime: "python",
    plugins: { providers: [{ name: "squarecloud", path: await nativePluginDir() }] },
  };
  writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify(project, null, 2));
  const setProgram = (next: string) => writeFileSync(path.join(workDir, "__main__.py"), next);
  setProgram(source);
  const env = { PYTHONPATH: (await pythonSdkBuild()).site, ...options.env };
  return { ...(await openStack(workDir, label, withPythonHost({ ...options, env }))), setProgram };
}

/**
 * The options with the project's Python virtualenv on the PATH of the CLI and what it starts, after
 * the directories of `first`: the language host (beside the engine) runs the first python there.
 */
function withPythonHost<T extends { env?: Record<string, string> }>(options: T, first: string[] = []): T {
  const PATH = [...first, pythonBinDir(), process.env.PATH].join(path.delimiter);
  return { ...options, env: { PATH, ...options.env } };
}

export interface GoStack extends ProgramStack {
  /** Rewrites the program (main.go) between operations. */
  setProgram(source: string): void;
}

/**
 * A stack of a Pulumi Go program (runtime go) using the native plugin of this repository and the Go
 * SDK generated in sdk/go, which the program's module takes through a `replace` directive. `source`
 * is the program, main.go. The host builds it with the machine's Go caches, so a warm run only
 * compiles the program.
 */
export async function goStack(
  label: string,
  source: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<GoStack> {
  const workDir = scratchDir(label);
  const project = {
    name: label,
    runtime: "go",
    plugins: { providers: [{ name: "squarecloud", path: await nativePluginDir() }] },
  };
  writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify(project, null, 2));
  writeFileSync(path.join(workDir, "go.mod"), goModule(label));
  // The SDK's module sums cover every module the program builds from: go never has to look one up.
  cpSync(path.join(goSdkDir, "go.sum"), path.join(workDir, "go.sum"));
  const setProgram = (next: string) => writeFileSync(path.join(workDir, "main.go"), next);
  setProgram(source);
  goLanguageHostDir(); // installed beside the engine
  return { ...(await openStack(workDir, label, options)), setProgram };
}

const goSdkDir = path.join(repoRoot, "sdk", "go");

/**
 * A Go program's go.mod: the SDK's own (every module it builds from, at the versions it pins), under
 * the program's name, with the SDK required from this repository in place of its module path.
 */
export function goModule(name: string): string {
  const sdkModule = readFileSync(path.join(goSdkDir, "go.mod"), "utf8");
  return `${sdkModule.replace(/^module .*$/m, `module ${name}`)}
require ${GO_MODULE_PATH} v0.0.0

replace ${GO_MODULE_PATH} => ${goSdkDir}
`;
}

export interface JavaStack extends ProgramStack {
  /** Makes the program `sources[index]` (of the stack's creation) the one the next operations run. */
  setProgram(index: number): void;
}

/**
 * A stack of Pulumi Java programs (runtime java) using the native plugin of this repository and
 * the Java SDK generated in sdk/java, each compiled into a jar the Java language host runs
 * (tests/e2e/harness/java-program.ts). `sources` are the programs, each a class App, compiled together;
 * the first runs until `setProgram` picks another.
 */
export async function javaStack(
  label: string,
  sources: string[],
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<JavaStack> {
  const workDir = scratchDir(label);
  const project = {
    name: label,
    runtime: "java",
    plugins: { providers: [{ name: "squarecloud", path: await nativePluginDir() }] },
  };
  writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify(project, null, 2));
  const jars = await compileJavaPrograms(workDir, sources);
  const setProgram = (index: number) => cpSync(jars[index], path.join(workDir, JAVA_PROGRAM_JAR));
  setProgram(0);
  return { ...(await openStack(workDir, label, withLanguageHost(javaJarHostDir(workDir), options))), setProgram };
}

/**
 * A stack of a Maven project of Pulumi Java (runtime java, its pom.xml and sources in workDir), run
 * as a user runs it: the Java language host starts `mvn compile exec:java` on each run.
 */
export async function javaMavenProjectStack(
  workDir: string,
  options: Omit<ProgramStackOptions, "program"> = {},
): Promise<ProgramStack> {
  mkdirSync(path.join(workDir, ".state"), { recursive: true });
  return openStack(workDir, projectName(workDir), withLanguageHost(javaLanguageHostDir(), options));
}

/**
 * The Java language host, told to run the program's jar: a launcher named as the host, passing the
 * host's `-binary` flag. The 1.16 host reads `runtime.options.binary` of Pulumi.yaml only from that
 * flag, which the engine no longer gives (it sends a project's runtime options in its requests).
 * Beside it, the `java` the host finds first on PATH: the machine's, with the options of short runs.
 */
export function javaJarHostDir(workDir: string): string {
  const dir = path.join(workDir, ".java-host");
  mkdirSync(dir);
  const host = path.join(javaLanguageHostDir(), "pulumi-language-java");
  const launchers = {
    "pulumi-language-java": `exec ${JSON.stringify(host)} -binary ${JAVA_PROGRAM_JAR} "$@"`,
    java: `exec ${JSON.stringify(which("java", process.env.PATH ?? ""))} ${SHORT_RUN_JVM_OPTIONS.join(" ")} "$@"`,
  };
  for (const [name, line] of Object.entries(launchers))
    writeFileSync(path.join(dir, name), `#!/bin/sh\n${line}\n`, { mode: 0o755 });
  return dir;
}

let nativePlugin: Promise<string> | undefined;

/**
 * The native plugin as users install it: this machine's archive of `npm run build:plugin` (which
 * scripts/test keeps current), unpacked once per build for every test process, so its bundle runs on
 * the archive's Node from its V8 code cache. The engine runs a plugin found by a project's
 * `plugins:` path as the executable `pulumi-resource-squarecloud` of that directory: here a launcher
 * that keeps the code cache in the directory, not in the user's cache directory.
 */
export function nativePluginDir(): Promise<string> {
  nativePlugin ??= (async () => {
    const archive = builtArchive();
    const sums = readFileSync(path.join(path.dirname(archive), "SHA256SUMS"), "utf8");
    const sum = new RegExp(`^([0-9a-f]{64})  ${path.basename(archive)}$`, "m").exec(sums)?.[1];
    if (!sum) throw new Error(`SHA256SUMS beside ${archive} does not list it: run \`npm run build:plugin\``);
    return builtOnce("native-plugin-", sum.slice(0, 16), (partial, dir) => {
      mkdirSync(path.join(partial, "archive"));
      execFileSync("tar", ["-xzf", archive, "-C", path.join(partial, "archive")]);
      const plugin = path.join(dir, "archive", "pulumi-resource-squarecloud");
      const cache = path.join(dir, "code-cache");
      writeFileSync(
        path.join(partial, "pulumi-resource-squarecloud"),
        `#!/bin/sh\nXDG_CACHE_HOME=${JSON.stringify(cache)} exec ${JSON.stringify(plugin)} "$@"\n`,
        { mode: 0o755 },
      );
    });
  })();
  return nativePlugin;
}

/**
 * The options of a stack of a YAML program, once the YAML language host is installed beside the
 * engine (where the engine looks first; one on PATH would run with a warning on every run).
 */
function withYamlHost<T>(options: T): T {
  yamlLanguageHostDir();
  return options;
}

/**
 * The options with a language host's directory first on the PATH of the CLI and what it starts: for
 * a host that must run with flags of the test's own (the Java host told which jar to run).
 */
function withLanguageHost<T extends { env?: Record<string, string> }>(hostDir: string, options: T): T {
  const PATH = [hostDir, process.env.PATH].join(path.delimiter);
  return { ...options, env: { PATH, ...options.env } };
}

/** The project name in dir's Pulumi.yaml. */
function projectName(dir: string): string {
  const project = /^name:\s*(\S+)/m.exec(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"))?.[1];
  if (!project) throw new Error(`${path.join(dir, "Pulumi.yaml")} has no project name`);
  return project;
}

/**
 * The stack of the repository's own Pulumi.yaml, run in place from the repository root as a user
 * would run `pulumi up` there. The backend lives in scratch space; the stack's config file, which
 * the CLI writes beside Pulumi.yaml (it holds the passphrase salt), is removed on dispose.
 */
export async function repoRootStack(options: Omit<ProgramStackOptions, "program"> = {}): Promise<ProgramStack> {
  const project = projectName(repoRoot);
  const scratch = scratchDir("root");
  const stackName = `e2e-${path.basename(scratch)}`;
  return openStack(repoRoot, project, options, {
    scratch,
    stackName,
    extraFiles: [path.join(repoRoot, `Pulumi.${stackName}.yaml`)],
  });
}

function scratchDir(label: string): string {
  const workDir = path.join(scratchRoot, `${label}-${randomBytes(4).toString("hex")}`);
  mkdirSync(path.join(workDir, ".state"), { recursive: true });
  return workDir;
}

interface StackPlacement {
  projectSettings?: ProjectSettings;
  /** Removed on dispose, holds the backend; default: the work directory itself. */
  scratch?: string;
  stackName?: string;
  /** Files outside the scratch directory that dispose removes too. */
  extraFiles?: string[];
}

async function openStack(
  workDir: string,
  project: string,
  options: Omit<ProgramStackOptions, "program">,
  placement: StackPlacement = {},
): Promise<ProgramStack> {
  const scratch = placement.scratch ?? workDir;
  const backendDir = path.join(scratch, ".state");
  const workspace = await LocalWorkspace.create({
    workDir,
    pulumiCommand: await pulumiEngine(),
    projectSettings: placement.projectSettings,
    envVars: {
      PULUMI_BACKEND_URL: `file://${backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_HOME: path.join(scratchRoot, "home"),
      ...options.env,
    },
  });
  const stackName = placement.stackName ?? "e2e";
  const checkpointFile = checkpointPath(backendDir, project, stackName);
  const checkpoint = () => readFileSync(checkpointFile, "utf8");
  const stack = localConfig(
    localRunResults(await Stack.create(stackName, workspace), checkpointFile),
    project,
    passphrase,
  );
  if (options.config) await stack.setAllConfig(options.config);

  const resources = async (): Promise<StateResource[]> => JSON.parse(checkpoint()).checkpoint.latest?.resources ?? [];
  return {
    stack,
    workDir,
    backendText: () => readTree(backendDir),
    checkpoint,
    resources,
    dispose: async () => {
      try {
        // A stack its tests destroyed, or never updated, holds nothing: no engine run to pay for it.
        if (existsSync(checkpointFile) && (await resources()).length > 0) await stack.destroy();
      } finally {
        for (const leftover of [scratch, ...(placement.extraFiles ?? [])])
          rmSync(leftover, { recursive: true, force: true });
      }
    },
  };
}

function readTree(dir: string): string {
  return readdirSync(dir)
    .map((entry) => {
      const full = path.join(dir, entry);
      return statSync(full).isDirectory() ? readTree(full) : readFileSync(full, "utf8");
    })
    .join("\n");
}
