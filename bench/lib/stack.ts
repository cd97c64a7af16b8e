import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type ConfigMap, LocalWorkspace, type ProjectSettings, Stack } from "@pulumi/pulumi/automation";
import { pulumiEngine, repoRoot, yamlLanguageHostDir } from "../../tests/e2e/harness/engine";
import { checkpointPath, localRunResults } from "../../tests/e2e/harness/run-results";

/** Scratch space inside the repo (git-ignored), so programs and provider processes resolve node_modules. */
export const scratchRoot = path.join(repoRoot, "bench", "results", "work");

/** Where the bench's plugin directories are: a process running a plugin has this in its command line. */
export const PLUGINS_DIR = path.join(scratchRoot, "plugins");

export interface BenchStack {
  stack: Stack;
  workDir: string;
  /** Removes the scratch directory; the stack must have been destroyed. */
  dispose(): void;
}

/**
 * What a bench stack runs: the name of a compiled program of bench/programs (TypeScript), or a Pulumi
 * YAML program (`runtime: yaml`), given as its project file below the name and runtime (resources,
 * outputs), run by the YAML language host of scripts/install-yaml-host.
 */
export type BenchProgram = string | { name: string; yaml: Record<string, unknown> };

/**
 * A fresh stack running `program` with the real CLI and a `file://` backend, as the e2e suite runs
 * its programs. `files` are written into the project directory (the provider process reads
 * FileAssets there); `plugin`, a directory holding `pulumi-resource-squarecloud`, serves the
 * project's `squarecloud` resources (Pulumi.yaml `plugins:`).
 */
export async function benchStack(
  program: BenchProgram,
  config: ConfigMap,
  files: Record<string, string> = {},
  plugin?: string,
): Promise<BenchStack> {
  const name = typeof program === "string" ? program : program.name;
  const workDir = path.join(scratchRoot, `${name}-${randomBytes(4).toString("hex")}`);
  mkdirSync(path.join(workDir, ".state"), { recursive: true });
  if (typeof program === "string") {
    const programDir = path.join(repoRoot, "dist", "bench", "programs", program);
    writeFileSync(
      path.join(workDir, "package.json"),
      JSON.stringify({ name: path.basename(workDir), private: true, main: "index.js" }),
    );
    writeFileSync(path.join(workDir, "index.js"), `module.exports = require(${JSON.stringify(programDir)});\n`);
  } else {
    // Linked beside the engine, where the engine finds it.
    yamlLanguageHostDir();
  }
  writeFiles(workDir, files);
  const workspace = await LocalWorkspace.create({
    workDir,
    pulumiCommand: await pulumiEngine(),
    projectSettings: {
      name: `bench-${name}`,
      // Written to Pulumi.yaml as given; the Automation API's type lists neither the yaml runtime,
      // nor `plugins`, nor a YAML program's sections.
      ...(typeof program === "string"
        ? { runtime: { name: "nodejs", options: { typescript: false } } }
        : { runtime: "yaml", ...program.yaml }),
      ...(plugin ? { plugins: { providers: [{ name: "squarecloud", path: plugin }] } } : {}),
    } as ProjectSettings,
    envVars: {
      PULUMI_BACKEND_URL: `file://${path.join(workDir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_HOME: path.join(scratchRoot, "home"),
    },
  });
  // The commands timed are the user's: not the Automation API's follow-up `stack output` and `stack history`.
  const checkpointFile = checkpointPath(path.join(workDir, ".state"), `bench-${name}`, "bench");
  const stack = localRunResults(await Stack.create("bench", workspace), checkpointFile);
  await stack.setAllConfig(config);
  return { stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}

/** Writes each file of `files` (path relative to `dir` -> text), with the directories it needs. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/** Wall time of one operation, in milliseconds. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}
