import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { takeDirLock } from "../lib/dir-lock";

/**
 * The release a past commit built: `npm run release` as that commit defines it, run in a git
 * worktree of that commit with its own `npm ci`, so what comes out is what that release shipped
 * (its SDKs, its plugin, its schema), whatever the repository holds now. Built once per machine
 * into the cache the install scripts use (SQUARECLOUD_TOOLS_DIR, else ~/.cache/pulumi-squarecloud),
 * under releases/<version>-<commit>/, and reused from there: the folder holds the release's files
 * as that commit's release command wrote them (its checksums file among them).
 */

const repoRoot = path.resolve(__dirname, "..", "..", "..");

/** The cache of the install scripts, as scripts/lib/go-tool.sh names it. */
export function toolsCacheDir(): string {
  return (
    process.env.SQUARECLOUD_TOOLS_DIR ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-squarecloud")
  );
}

export interface PastRelease {
  /** The version that commit's package.json names. */
  version: string;
  /** The commit, in full. */
  commit: string;
  /** The folder of its release's files. */
  dir: string;
}

function git(args: string[], cwd = repoRoot): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/**
 * The full id of `commit`. A shallow clone (as some CI checkouts are) lacks the past commits the
 * recorded releases name: it fetches the one asked for from its origin, alone.
 */
function knownCommit(commit: string): string {
  const verify = () => git(["rev-parse", "--quiet", "--verify", `${commit}^{commit}`]).trim();
  try {
    return verify();
  } catch (error) {
    if (git(["rev-parse", "--is-shallow-repository"]).trim() !== "true") throw error;
    git(["fetch", "--quiet", "--depth=1", "origin", commit]);
    return verify();
  }
}

/** Where the release of `commit` (any name git knows it by) is, or will be, cached. */
export function pastReleaseOf(commit: string): PastRelease {
  const full = knownCommit(commit);
  const { version } = JSON.parse(git(["show", `${full}:package.json`])) as { version: string };
  return { version, commit: full, dir: path.join(toolsCacheDir(), "releases", `${version}-${full.slice(0, 12)}`) };
}

/**
 * The release of `commit`, built on first use (minutes: that commit's `npm ci` and every archive of
 * its release), at once from the cache after. Builds run one at a time per machine (a lock beside
 * the folder); a build that failed half-way leaves no folder, so the next call builds again.
 */
export async function pastRelease(commit: string): Promise<PastRelease> {
  const release = pastReleaseOf(commit);
  if (existsSync(release.dir)) return release;
  mkdirSync(path.dirname(release.dir), { recursive: true });
  const unlock = await takeDirLock(`${release.dir}.lock`);
  try {
    if (!existsSync(release.dir)) buildPastRelease(release);
  } finally {
    unlock();
  }
  return release;
}

function buildPastRelease({ version, commit, dir }: PastRelease): void {
  const worktree = path.join(mkdtempSync(path.join(tmpdir(), `squarecloud-release-${version}-`)), "src");
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  console.error(`[past-release] building ${version} from ${commit} in ${worktree}`);
  git(["worktree", "add", "--quiet", "--detach", worktree, commit]);
  try {
    // The commit's own environment: its times come from the commit, not from ours.
    const env = { ...process.env };
    delete env.SOURCE_DATE_EPOCH;
    const run = (args: string[]) => execFileSync("npm", args, { cwd: worktree, env, stdio: ["ignore", 2, "inherit"] });
    run(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
    run(["run", "release", "--", "--out", partial]);
    renameSync(partial, dir);
  } finally {
    // Removed by hand, then forgotten by git: `git worktree remove` would first scan node_modules for changes.
    rmSync(path.dirname(worktree), { recursive: true, force: true });
    git(["worktree", "prune"]);
  }
}

/** `node dist/scripts/release/past-release.js <commit>`: builds (or finds) that commit's release, prints its folder. */
if (require.main === module) {
  pastRelease(process.argv[2] ?? "").then(
    (release) => console.log(release.dir),
    (err) => {
      console.error(`past-release: ${(err as Error).message}`);
      process.exitCode = 1;
    },
  );
}
