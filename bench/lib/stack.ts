import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type ConfigMap, LocalWorkspace, type ProjectSettings, Stack } from "@pulumi/pulumi/automation";
import { pulumiEngine, repoRoot } from "../../tests/e2e/engine";
import { resultsFromRunEvents } from "../../tests/e2e/run-results";

/** Scratch space inside the repo (git-ignored), so programs and provider processes resolve node_modules. */
export const scratchRoot = path.join(repoRoot, "bench", "results", "work");

export interface BenchStack {
  stack: Stack;
  workDir: string;
  /** Removes the scratch directory; the stack must have been destroyed. */
  dispose(): void;
}

/**
 * A fresh stack running a compiled program of bench/programs with the real CLI and a `file://`
 * backend, as the e2e suite runs its programs. `files` are written into the project directory
 * (the provider process reads FileAssets there); `plugin`, a directory holding
 * `pulumi-resource-squarecloud`, serves the project's `squarecloud` resources (Pulumi.yaml `plugins:`).
 */
export async function benchStack(
  program: string,
  config: ConfigMap,
  files: Record<string, string> = {},
  plugin?: string,
): Promise<BenchStack> {
  const workDir = path.join(scratchRoot, `${program}-${randomBytes(4).toString("hex")}`);
  mkdirSync(path.join(workDir, ".state"), { recursive: true });
  const programDir = path.join(repoRoot, "dist", "bench", "programs", program);
  writeFileSync(
    path.join(workDir, "package.json"),
    JSON.stringify({ name: path.basename(workDir), private: true, main: "index.js" }),
  );
  writeFileSync(path.join(workDir, "index.js"), `module.exports = require(${JSON.stringify(programDir)});\n`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(workDir, file)), { recursive: true });
    writeFileSync(path.join(workDir, file), text);
  }
  const workspace = await LocalWorkspace.create({
    workDir,
    pulumiCommand: await pulumiEngine(),
    projectSettings: {
      name: `bench-${program}`,
      runtime: { name: "nodejs", options: { typescript: false } },
      // Written to Pulumi.yaml as given; the Automation API's type does not list `plugins`.
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
  const stack = resultsFromRunEvents(await Stack.create("bench", workspace));
  await stack.setAllConfig(config);
  return { stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}

/** Wall time of one operation, in milliseconds. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}
