import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { repoRoot } from "./engine";
import { npmInstallArgs } from "./outside-project";

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));

/**
 * The TypeScript releases README supports: the one the repository pins (5.9) and 6. 7 is left
 * out on purpose: it breaks every Pulumi run through ts-node.
 */
export const SUPPORTED_TYPESCRIPT: string[] = [manifest.devDependencies.typescript, "6.0.3"];

/**
 * The tsc of that TypeScript release: the repository's own for the release it pins (`npm ci`
 * installed it), else installed once into the cache that also holds the Pulumi engine
 * (SQUARECLOUD_TOOLS_DIR, as scripts/install-pulumi reads it) and reused by later runs.
 */
export function cachedTsc(version: string): string {
  if (version === manifest.devDependencies.typescript)
    return path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
  const tools = process.env.SQUARECLOUD_TOOLS_DIR ?? path.join(homedir(), ".cache", "pulumi-squarecloud");
  const dir = path.join(tools, `typescript-${version}`);
  const tsc = path.join(dir, "node_modules", "typescript", "bin", "tsc");
  if (!existsSync(tsc)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `typescript-${version}`, private: true }));
    execFileSync("npm", npmInstallArgs([`typescript@${version}`]), {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return tsc;
}

/**
 * `tsc --noEmit -p project` on that TypeScript release, beside the test file's other work (seconds
 * of CPU): its exit status and what it printed on stdout, where tsc writes every diagnostic.
 */
export function typeCheck(version: string, project: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const tsc = spawn(process.execPath, [cachedTsc(version), "--noEmit", "-p", project], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    tsc.stdout.on("data", (chunk) => (stdout += chunk));
    tsc.on("error", reject);
    tsc.on("close", (status) => resolve({ status, stdout }));
  });
}
