import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../engine";

/** `npm run release -- --out <out>` (compiled, as `npm run release` runs it after its build), its progress on the test's output. */
export function releaseInto(out: string, args: string[] = []): void {
  execFileSync("node", [path.join(repoRoot, "dist", "scripts", "release.js"), "--out", out, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "inherit", "inherit"],
  });
}
