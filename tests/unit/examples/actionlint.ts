import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { installedToolDir, repoRoot } from "../../install-script";

export interface ActionlintFinding {
  message: string;
  filepath: string;
  line: number;
  column: number;
  /** The check that found it: "syntax-check", "expression", "action", "events", ... */
  kind: string;
}

export interface ActionlintRun {
  status: number | null;
  findings: ActionlintFinding[];
  stderr: string;
}

let binary: string | undefined;

/**
 * The actionlint the tests run: ACTIONLINT_BIN (set by scripts/test) or the build of
 * scripts/install-actionlint, of the version that script pins. A missing actionlint is an error,
 * never a skipped check.
 */
export function actionlintBinary(): string {
  binary ??= locate();
  return binary;
}

function locate(): string {
  return checkedActionlint(
    process.env.ACTIONLINT_BIN ?? path.join(installedToolDir("install-actionlint", "actionlint"), "actionlint"),
  );
}

/**
 * The binary, once it reports the version scripts/install-actionlint pins: release binaries print
 * it bare ("1.7.12"), builds of the script with a leading v.
 */
export function checkedActionlint(found: string): string {
  const reported = spawnSync(found, ["-version"], { encoding: "utf8" });
  if (reported.error) throw new Error(`no actionlint at ${found}: ${reported.error.message}`);
  const pinned = pinnedActionlintVersion();
  const version = reported.stdout.split("\n")[0];
  if (version.replace(/^v/, "") !== pinned)
    throw new Error(
      `the actionlint at ${found} is ${version || "of unknown version"}, scripts/install-actionlint pins v${pinned}`,
    );
  return found;
}

/** The version scripts/install-actionlint pins, without a leading v. */
export function pinnedActionlintVersion(): string | undefined {
  return /^version=(\S+)$/m.exec(readFileSync(path.join(repoRoot, "scripts", "install-actionlint"), "utf8"))?.[1];
}

/**
 * actionlint on one workflow file, its findings as JSON. shellcheck and pyflakes, which it runs on
 * `run:` scripts when they are on PATH, are turned off so the result does not depend on the machine.
 */
export function actionlint(workflow: string): ActionlintRun {
  const run = spawnSync(
    actionlintBinary(),
    ["-no-color", "-shellcheck=", "-pyflakes=", "-format", "{{json .}}", path.basename(workflow)],
    {
      cwd: path.dirname(workflow),
      encoding: "utf8",
    },
  );
  if (run.error) throw run.error;
  const findings = run.stdout.trim() === "" ? [] : (JSON.parse(run.stdout) as ActionlintFinding[]);
  return { status: run.status, findings, stderr: run.stderr };
}
