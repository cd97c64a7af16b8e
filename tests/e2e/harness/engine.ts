import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { engineDir, installedToolDir, repoRoot } from "../../install-script";

export { repoRoot };

let engine: Promise<PulumiCommand> | undefined;

/**
 * The real Pulumi CLI the e2e tests drive. It comes from PULUMI_ENGINE_DIR (set by scripts/test)
 * or from scripts/install-pulumi, which reuses its cached build. A missing engine is an error,
 * never a skipped test: an e2e suite that silently skips proves nothing.
 */
export function pulumiEngine(): Promise<PulumiCommand> {
  engine ??= locateEngine();
  return engine;
}

async function locateEngine(): Promise<PulumiCommand> {
  const binDir = engineDir();
  // PulumiCommand expects <root>/bin/pulumi; the language host and the dynamic-provider launcher
  // sit beside it, where the CLI looks for bundled plugins.
  const command = await PulumiCommand.get({ root: path.dirname(binDir) });
  const pinned = readPinnedVersion();
  if (command.version?.version !== pinned) {
    throw new Error(
      `the Pulumi engine in ${binDir} is ${command.version?.version ?? "of unknown version"}, the project pins ${pinned}`,
    );
  }
  return command;
}

let yamlHost: string | undefined;

/**
 * The directory of the YAML language host that runs the tests' YAML programs: PULUMI_YAML_HOST_DIR
 * (set by scripts/test) or scripts/install-yaml-host, which reuses its cached build. Either way the
 * host is linked beside the engine, where the engine finds it without a warning.
 */
export function yamlLanguageHostDir(): string {
  yamlHost ??= process.env.PULUMI_YAML_HOST_DIR ?? installedToolDir("install-yaml-host", "Pulumi YAML language host");
  return yamlHost;
}

let pythonHost: string | undefined;

/**
 * The bin/ directory of scripts/install-python-host's virtualenv: PULUMI_PYTHON_BIN (set by
 * scripts/test) or that script's cached build, which also links the Python language host beside
 * the engine. Stacks of Python programs put it first on PATH: the host (of sdk v3.68.0) runs the
 * first python there.
 */
export function pythonBinDir(): string {
  pythonHost ??= process.env.PULUMI_PYTHON_BIN ?? installedToolDir("install-python-host", "Python language host");
  return pythonHost;
}

let hostPulumi: string | undefined;

/** The PyPI `pulumi` of that virtualenv: the release the Python language host is known to work with. */
export function hostPulumiVersion(): string {
  hostPulumi ??= execFileSync(
    path.join(pythonBinDir(), "python"),
    ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"],
    { encoding: "utf8" },
  ).trim();
  return hostPulumi;
}

let goHost: string | undefined;

/**
 * The directory of the Go language host that runs the tests' Go programs: PULUMI_GO_HOST_DIR (set
 * by scripts/test) or scripts/install-go-host, which reuses its cached build and links the host
 * beside the engine, as for the YAML host.
 */
export function goLanguageHostDir(): string {
  goHost ??= process.env.PULUMI_GO_HOST_DIR ?? installedToolDir("install-go-host", "Pulumi Go language host");
  return goHost;
}

let javaHost: string | undefined;

/**
 * The directory of the Java language host that runs the tests' Java programs: PULUMI_JAVA_HOST_DIR
 * (set by scripts/test) or scripts/install-java-host, which reuses its cached build. Stacks of Java
 * programs put it on PATH, as for the YAML host.
 */
export function javaLanguageHostDir(): string {
  javaHost ??= process.env.PULUMI_JAVA_HOST_DIR ?? installedToolDir("install-java-host", "Pulumi Java language host");
  return javaHost;
}

/** The engine version the tests run on: PULUMI_VERSION (as scripts/install-pulumi reads it; `npm run test:compat` sets the oldest supported one), else the pinned one. */
function readPinnedVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  return process.env.PULUMI_VERSION || manifest.config.pulumiVersion;
}
