import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { repoRoot } from "./engine";

/**
 * A user's machine as far as a Pulumi run sees it: a fresh directory outside this repository with
 * a Pulumi home, a `file://` backend and the project, and an environment whose PATH holds what that
 * user installed and the system's programs, but no Node.
 */
export interface UserMachine {
  name: string;
  dir: string;
  home: string;
  backend: string;
  project: string;
  /** PATH, PULUMI_HOME and what else the user's shell sets. */
  env: Record<string, string>;
  remove(): void;
}

/** What a Node install puts on PATH: none may be reachable by a user without Node. */
const NODE_PROGRAMS = new Set(["node", "nodejs", "npm", "npx", "corepack"]);

/** The system's program directories (node lives in /usr/bin here, so none goes on PATH as is). */
const SYSTEM_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** A user whose PATH holds `programs` (symlinked into one directory), the directories `dirs`, then the system's programs without Node. */
export function userMachine(name: string, programs: string[], dirs: string[]): UserMachine {
  const dir = mkdtempSync(path.join(tmpdir(), `squarecloud-user-${name}-`));
  const machine = {
    name,
    dir,
    home: path.join(dir, "pulumi-home"),
    backend: path.join(dir, "state"),
    project: path.join(dir, "project"),
  };
  for (const d of [machine.home, machine.backend, machine.project]) mkdirSync(d);
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  for (const program of programs) symlinkSync(program, path.join(bin, path.basename(program)));
  const system = path.join(dir, "system-bin");
  mirrorWithoutNode(system);
  const PATH = [bin, ...dirs, system].join(path.delimiter);
  for (const entry of PATH.split(path.delimiter)) {
    if (realpathSync(entry).startsWith(repoRoot)) throw new Error(`${entry} is inside the repository`);
  }
  return {
    ...machine,
    // Caches too are the user's own: the plugin keeps its code cache there.
    env: { PATH, PULUMI_HOME: machine.home, XDG_CACHE_HOME: path.join(dir, "cache"), PULUMI_SKIP_UPDATE_CHECK: "true" },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `dir` filled with a symlink to every program of the system's directories but Node's (the first of a name wins, as on PATH). */
function mirrorWithoutNode(dir: string): void {
  mkdirSync(dir);
  const seen = new Set<string>();
  for (const system of SYSTEM_DIRS.filter(existsSync)) {
    for (const name of readdirSync(system)) {
      if (NODE_PROGRAMS.has(name) || seen.has(name)) continue;
      seen.add(name);
      symlinkSync(path.join(system, name), path.join(dir, name));
    }
  }
}

/** Where `program` resolves on `PATH`, or undefined. */
export function which(program: string, PATH: string): string | undefined {
  try {
    return execFileSync("sh", ["-c", `command -v ${program}`], { env: { PATH }, encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}
