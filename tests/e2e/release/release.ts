import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import * as path from "node:path";
import { takeDirLock } from "../../../scripts/lib/dir-lock";
import { repoRoot } from "../harness/engine";

/** `npm run release -- --out <out>` (compiled, as `npm run release` runs it after its build), its progress on the test's output. */
export function releaseInto(out: string, args: string[] = []): void {
  execFileSync("node", [path.join(repoRoot, "dist", "scripts", "release.js"), "--out", out, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

const sharedReleases = path.join(repoRoot, "dist", "release");

/**
 * The release of the commit checked out, for the files that only read it: built once by whichever
 * asks first (under a lock, a build taking a minute of CPU) into dist/release/<key>, where key is
 * the commit and the compiled sources (the release script among them); a later key replaces it.
 */
export async function sharedRelease(): Promise<string> {
  const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim();
  const sources = readFileSync(path.join(repoRoot, "dist", ".sources-sha256"), "utf8").trim();
  const key = createHash("sha256").update(`${commit} ${sources}`).digest("hex").slice(0, 16);
  const dir = path.join(sharedReleases, key);
  mkdirSync(sharedReleases, { recursive: true });
  const unlock = await takeDirLock(path.join(sharedReleases, ".lock"));
  try {
    if (!existsSync(dir)) {
      for (const old of readdirSync(sharedReleases).filter((entry) => entry !== ".lock"))
        rmSync(path.join(sharedReleases, old), { recursive: true, force: true });
      // Whole or absent: a build that failed half-way leaves only the partial directory, removed next time.
      releaseInto(`${dir}.partial`);
      renameSync(`${dir}.partial`, dir);
    }
  } finally {
    unlock();
  }
  return dir;
}
