import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { takeDirLock } from "../../../scripts/lib/dir-lock";

/**
 * The Go environment of a program built against this project's module as a test built it: go
 * indexes each module version it extracts (in its build cache) as if it never changed, so a version
 * rebuilt with other files needs the index off.
 */
export const REBUILT_GO_MODULE_ENV = { GODEBUG: "goindex=0" };

/**
 * The e2e that build this project's Go module themselves (the first hour, the release rehearsal)
 * put it in the machine's module cache under one version, and go trusts what its cache holds. Each
 * takes the module only while holding this lock, which forgets the cached module when taken and
 * when released, so a test never builds against another's copy or one that is half removed.
 */
export async function lockOwnGoModule(): Promise<() => void> {
  const release = await takeDirLock(path.join(os.tmpdir(), "pulumi-squarecloud-go-module.lock"));
  forgetCachedModule();
  return () => {
    forgetCachedModule();
    release();
  };
}

function forgetCachedModule(): void {
  const cache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  for (const dir of [
    path.join(cache, "github.com", "squarecloud"),
    path.join(cache, "cache", "download", "github.com", "squarecloud"),
  ]) {
    if (!existsSync(dir)) continue;
    execFileSync("chmod", ["-R", "u+w", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}
