import { execFileSync } from "node:child_process";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "..", "..", "..");

/**
 * Runs one of scripts/install-* (which builds the tool on first use, then reuses the cached build)
 * and returns the directory it prints. Its progress goes to stderr; a failure is an error naming
 * the tool, never a reason to skip a step or a test.
 */
export function installedToolDir(script: string, tool: string): string {
  try {
    const out = execFileSync("bash", [path.join(repoRoot, "scripts", script)], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    return out.trim().split("\n").pop() as string;
  } catch (err) {
    throw new Error(`no ${tool}: scripts/${script} failed (${(err as Error).message})`);
  }
}
