import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { homedir } from "node:os";
import * as path from "node:path";
import { PLUGIN_EXECUTABLE } from "../release-assets";
import { Script } from "node:vm";

/**
 * Runs the plugin's bundle from a V8 code cache. Compiling the bundle is most of what a start
 * costs beyond Node's own: every function of its 4.6 MB is parsed once at load, and again in full
 * when it first runs. The first start of a build (on one Node version and CPU) compiles as before
 * and writes the code compiled so far into the user's cache directory; later starts take it from
 * there. A start that answers a kind of call the cache has not seen yet (the first `refresh` after
 * an `up`: reads) writes it again, with the code that call compiled, so each command's own
 * functions end up in it. The archive ships no cache: it stays the same bytes on every build, and
 * its directory may be read-only.
 */

/** The bundle's file name beside the archive's main.js, which runs it. */
export const PLUGIN_BUNDLE = "plugin.js";

/**
 * How long a start without a usable cache waits before writing one, and a start that answered a
 * new kind of call before writing again: long enough for the calls around it to have run, short
 * enough to be done before the engine stops the plugin. Writing takes about 100 ms of CPU, once.
 */
const WRITE_AFTER_MS = { start: 1000, answer: 200 };

/**
 * The `process` event a plugin emits with a method's name once it has answered its first call of
 * it (provider/plugin/serve.ts): the cache is written again if it was made before any such call.
 */
export const FIRST_ANSWER_EVENT = "squarecloud-plugin:first-answer";

/** What a cache file holds after its header: the methods whose first answer it has seen, then V8's data. */
const MAGIC = Buffer.from("SQCC1");

/**
 * Each build of the plugin (each version a user upgrades to) writes a cache of its own, about
 * 2 MB. A cache no start has used for this long is another build's, left behind: the first start
 * of a build removes those. A cache in use is marked used at most once a day, not at every start.
 */
const STALE_AFTER_MS = 30 * 24 * 3600_000;
const MARK_USED_EVERY_MS = 24 * 3600_000;

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
 * writes the cache a moment after the start; with or without, again after the first answer of a
 * method the cache has not seen. A cache that cannot be written (no directory, read-only) only
 * costs the time it saves.
 */
export function runWithCodeCache(bundle: string, cacheFile: string | undefined): { fromCache: boolean } {
  const cached = cacheFile ? readCache(cacheFile) : undefined;
  const script = new Script(Module.wrap(readFileSync(bundle, "utf8")), { filename: bundle, cachedData: cached?.data });
  const fromCache = cached !== undefined && !script.cachedDataRejected;
  if (cacheFile && fromCache) markUsed(cacheFile);
  if (cacheFile) keepWriting(script, cacheFile, fromCache ? cached : undefined);
  const main = new Module(bundle);
  main.filename = bundle;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(main.exports, main.exports, Module.createRequire(bundle), main, bundle, path.dirname(bundle));
  return { fromCache };
}

interface CodeCache {
  /** The methods whose first answer had been given when the cache was written. */
  answered: Set<string>;
  data: Buffer;
}

/** Writes the cache once the process has compiled code it lacks: after the start, after a method's first answer. */
function keepWriting(script: Script, cacheFile: string, cached: CodeCache | undefined): void {
  const answered = new Set(cached?.answered);
  let firstWrite = !cached;
  let scheduled = false;
  // Always written, even when V8 has meanwhile dropped the bytecode of a few functions unused for
  // a while and the cache comes out smaller than the one read: a cache not written would keep
  // lacking the new method, and every start answering it would make the cache again in vain.
  const writeLater = (ms: number) => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      writeCache(cacheFile, { answered, data: script.createCachedData() });
      if (firstWrite) removeStale(cacheFile);
      firstWrite = false;
    }, ms).unref();
  };
  if (!cached) writeLater(WRITE_AFTER_MS.start);
  process.on(FIRST_ANSWER_EVENT, (method: string) => {
    if (answered.has(method)) return;
    answered.add(method);
    writeLater(WRITE_AFTER_MS.answer);
  });
}

function readCache(file: string): CodeCache | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  try {
    const headerEnd = MAGIC.length + 4 + bytes.readUInt32LE(MAGIC.length);
    const answered: unknown = JSON.parse(bytes.subarray(MAGIC.length + 4, headerEnd).toString("utf8"));
    if (!Array.isArray(answered)) return undefined;
    return { answered: new Set(answered.map(String)), data: bytes.subarray(headerEnd) };
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place, so a process that starts meanwhile reads all of it or none. */
function writeCache(cacheFile: string, cache: CodeCache): void {
  const partial = `${cacheFile}.${process.pid}`;
  const header = Buffer.from(JSON.stringify([...cache.answered].sort()), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  try {
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    writeFileSync(partial, Buffer.concat([MAGIC, length, header, cache.data]), { mode: 0o600 });
    // Windows renames onto no existing file: the refused cache goes first.
    rmSync(cacheFile, { force: true });
    renameSync(partial, cacheFile);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {}
  }
}

function markUsed(cacheFile: string): void {
  try {
    if (Date.now() - statSync(cacheFile).mtimeMs < MARK_USED_EVERY_MS) return;
    const now = new Date();
    utimesSync(cacheFile, now, now);
  } catch {}
}

/** Removes the other builds' caches beside `cacheFile` that no start has used for STALE_AFTER_MS. */
function removeStale(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  try {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file === cacheFile || !name.endsWith(".v8cache")) continue;
      if (Date.now() - statSync(file).mtimeMs > STALE_AFTER_MS) rmSync(file, { force: true });
    }
  } catch {}
}
