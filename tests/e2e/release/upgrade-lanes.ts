import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { mavenArtifactDir } from "../../../scripts/build-java";
import { JAVA_ARTIFACT_ID } from "../../../scripts/gen/java-pom";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
import { goLanguageHostDir, pythonBinDir, repoRoot, yamlLanguageHostDir } from "../harness/engine";
import { REBUILT_GO_MODULE_ENV } from "../harness/go-module-lock";
import { compileJavaPrograms, JAVA_PROGRAM_JAR } from "../harness/java-program";
import { npmInstall, pinnedDevDependency, pinnedPulumiSdk, vendorTarball } from "../harness/outside-project";
import { goModule, javaJarHostDir, pythonSdkBuild } from "../harness/stack";
import { type Language, programFiles, projectName } from "./upgrade-programs";

/**
 * The SDK a lane's program runs on: a past release's (`release`, the folder of its files, as
 * scripts/release/past-release.ts builds it), or the current build's when `release` is absent.
 */
export interface LaneSdk {
  version: string;
  release?: string;
}

/**
 * Writes the project of `language`'s upgrade program into workDir with its SDK installed as a user
 * of that language installs it, and returns what the engine's environment needs to run it. No
 * project names a plugin path: the engine gets the plugin its SDK (or, in YAML, the program) asks
 * for, as a user's does.
 */
export async function prepareLane(language: Language, workDir: string, sdk: LaneSdk): Promise<Record<string, string>> {
  const runtime = { typescript: "nodejs", yaml: "yaml", python: "python", go: "go", java: "java" }[language];
  const files = programFiles(language, sdk.version);
  const { "Pulumi.yaml": program = "", ...sources } = files;
  writeFileSync(path.join(workDir, "Pulumi.yaml"), `name: ${projectName(language)}\nruntime: ${runtime}\n${program}`);
  for (const [file, text] of Object.entries(sources)) writeFileSync(path.join(workDir, file), text);
  switch (language) {
    case "typescript":
      return typescriptLane(workDir, sdk);
    case "yaml":
      yamlLanguageHostDir(); // installed beside the engine
      return {};
    case "python":
      return pythonLane(workDir, sdk);
    case "go":
      return goLane(workDir, sdk);
    case "java":
      return javaLane(workDir, sdk);
  }
}

/**
 * The release's npm tarball installed from vendor/ as README says; the current build by the
 * package's own name, which resolves to this repository from a project inside it.
 */
async function typescriptLane(workDir: string, sdk: LaneSdk): Promise<Record<string, string>> {
  writeFileSync(
    path.join(workDir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, target: "es2020", module: "commonjs" }, files: ["index.ts"] }),
  );
  // The project's own package.json: the Node runtime runs the `main` of the nearest one, never the repository's.
  const manifest = { name: projectName("typescript"), private: true };
  if (sdk.release === undefined) {
    writeFileSync(path.join(workDir, "package.json"), JSON.stringify(manifest));
    return {};
  }
  const tarball = `pulumi-squarecloud-${sdk.version}.tgz`;
  vendorTarball(path.join(sdk.release, tarball), workDir);
  const pinned = (name: string) => pinnedDevDependency(name).slice(name.length + 1);
  writeFileSync(
    path.join(workDir, "package.json"),
    JSON.stringify({
      ...manifest,
      dependencies: {
        "@pulumi/pulumi": pinnedPulumiSdk.slice("@pulumi/pulumi@".length),
        "pulumi-squarecloud": `file:vendor/${tarball}`,
      },
      devDependencies: Object.fromEntries(["@types/node", "ts-node", "typescript"].map((name) => [name, pinned(name)])),
    }),
  );
  await npmInstall(workDir);
  return {};
}

/** The release's wheel, or the current build's, installed into a folder on PYTHONPATH beside the host's virtualenv. */
async function pythonLane(workDir: string, sdk: LaneSdk): Promise<Record<string, string>> {
  let site: string;
  if (sdk.release === undefined) site = (await pythonSdkBuild()).site;
  else {
    site = path.join(workDir, ".sdk");
    const [wheel] = readdirSync(sdk.release).filter((file) => file.endsWith(".whl"));
    execFileSync(
      path.join(pythonBinDir(), "python"),
      ["-m", "pip", "install", "--quiet", "--no-deps", "--target", site, path.join(sdk.release, wheel)],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
  }
  return { PATH: [pythonBinDir(), process.env.PATH].join(path.delimiter), PYTHONPATH: site };
}

/**
 * The release's module from its module proxy folder (`go get` by path and version, the checksum
 * database left out for it), or the current build's sdk/go through a `replace` directive.
 */
function goLane(workDir: string, sdk: LaneSdk): Record<string, string> {
  goLanguageHostDir(); // installed beside the engine
  if (sdk.release === undefined) {
    writeFileSync(path.join(workDir, "go.mod"), goModule(projectName("go")));
    cpSync(path.join(repoRoot, "sdk", "go", "go.sum"), path.join(workDir, "go.sum"));
    return {};
  }
  const env = {
    GOPROXY: `file://${path.join(sdk.release, "goproxy")},${execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim()}`,
    GONOSUMDB: GO_MODULE_PATH,
    ...REBUILT_GO_MODULE_ENV,
  };
  const go = (...args: string[]) =>
    execFileSync("go", args, { cwd: workDir, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  go("mod", "init", projectName("go"));
  go("get", `${GO_MODULE_PATH}/squarecloud@v${sdk.version}`);
  go("mod", "tidy");
  return env;
}

/**
 * The program compiled into the jar the Java language host runs, against the release's SDK jar (from
 * its Maven repository folder) or the current build's.
 */
async function javaLane(workDir: string, sdk: LaneSdk): Promise<Record<string, string>> {
  const sdkJar =
    sdk.release === undefined
      ? undefined
      : path.join(sdk.release, "maven", mavenArtifactDir(sdk.version), `${JAVA_ARTIFACT_ID}-${sdk.version}.jar`);
  const [jar] = await compileJavaPrograms(workDir, [readFileSync(path.join(workDir, "App.java"), "utf8")], sdkJar);
  cpSync(jar, path.join(workDir, JAVA_PROGRAM_JAR));
  return { PATH: [javaJarHostDir(workDir), process.env.PATH].join(path.delimiter) };
}
