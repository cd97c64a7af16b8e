import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { homedir } from "node:os";
import * as path from "node:path";
import { PLUGIN_EXECUTABLE } from "../release-assets";
import { Script } from "node:vm";

/**
 * Runs the plugin's bundle from a V8 code cache. Compiling the bundle is most of what a start
 * costs beyond Node's own: every function of its 4.6 MB is parsed once at load, and again in full
 * when it first runs. The first start of a build (on one Node version and CPU) compiles as before
 * and, once it has served its first calls, writes the code compiled so far into the user's cache
 * directory; later starts take it from there. The archive ships no cache: it stays the same bytes
 * on every build, and its directory may be read-only.
 */

/** The bundle's file name beside the archive's main.js, which runs it. */
export const PLUGIN_BUNDLE = "plugin.js";

/** How long after its start a process writes the cache: long enough to have served its first calls. */
const WRITE_AFTER_MS = 1000;

/**
 * Where the code cache of the bundle whose SHA-256 is `bundleSha256` lives for this Node, or
 * undefined when the user has no cache directory. V8 also refuses a cache made by another V8 or with
 * other flags; the name keeps one file per bundle, Node version and CPU.
 */
export function codeCacheFile(bundleSha256: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = cacheHome(env);
  if (!root) return undefined;
  const name = `${bundleSha256.slice(0, 16)}-node${process.versions.node}-${process.arch}.v8cache`;
  return path.join(root, PLUGIN_EXECUTABLE, name);
}

/** The platform's directory for a user's caches, as other tools use it. */
function cacheHome(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === "win32") return env.LOCALAPPDATA || undefined;
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return env.XDG_CACHE_HOME;
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  if (!home) return undefined;
  return process.platform === "darwin" ? path.join(home, "Library", "Caches") : path.join(home, ".cache");
}

/**
 * Runs the CommonJS file `bundle` as Node would run it as the main module, compiled from the code
 * cache in `cacheFile` when there is a usable one, and says whether there was. Without one, it
 * writes the cache a moment after the start; a cache that cannot be written (no directory,
 * read-only) only costs the time it saves.
 */
export function runWithCodeCache(bundle: string, cacheFile: string | undefined): { fromCache: boolean } {
  const cached = cacheFile ? readOrUndefined(cacheFile) : undefined;
  const script = new Script(Module.wrap(readFileSync(bundle, "utf8")), { filename: bundle, cachedData: cached });
  const fromCache = cached !== undefined && !script.cachedDataRejected;
  if (cacheFile && !fromCache) setTimeout(() => writeCache(script, cacheFile), WRITE_AFTER_MS).unref();
  const main = new Module(bundle);
  main.filename = bundle;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(main.exports, main.exports, Module.createRequire(bundle), main, bundle, path.dirname(bundle));
  return { fromCache };
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place, so a process that starts meanwhile reads all of it or none. */
function writeCache(script: Script, cacheFile: string): void {
  const partial = `${cacheFile}.${process.pid}`;
  try {
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    // Windows renames onto no existing file: the refused cache goes first.
    rmSync(cacheFile, { force: true });
    renameSync(partial, cacheFile);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {}
  }
}
