import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { codeCacheFile, FIRST_ANSWER_EVENT, runWithCodeCache } from "../../../provider/plugin/code-cache";

// The plugin's main.js runs its bundle from a V8 code cache in the user's cache directory: the
// first start writes it, later starts compile from it, a start that answers a method the cache
// has not seen writes it again, and a cache V8 refuses is written again.

let scratch: string;
beforeEach(() => (scratch = mkdtempSync(path.join(tmpdir(), "squarecloud-code-cache-"))));
afterEach(() => {
  // Each run listens for the first answers of its process, which is here the test's.
  process.removeAllListeners(FIRST_ANSWER_EVENT);
  jest.useRealTimers();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the timers a start sets: the cache is written a moment after the start. */
const afterStart = () => jest.advanceTimersByTime(1000);

/** A bundle that notes each run, with the file name and require Node gives a main module. */
function bundle(): string {
  const file = path.join(scratch, "plugin.js");
  writeFileSync(
    file,
    'require("node:fs").appendFileSync(require("node:path").join(__dirname, "runs"), __filename + "\\n");\n' +
      "module.exports.ran = function ran() { return 1; };\n",
  );
  return file;
}

const runs = () => readFileSync(path.join(scratch, "runs"), "utf8").trim().split("\n");

test("the cache is named by bundle, Node version and CPU, under XDG_CACHE_HOME or ~/.cache", () => {
  const sha = "0123456789abcdef".repeat(4);
  const name = `0123456789abcdef-node${process.versions.node}-${process.arch}.v8cache`;
  expect(codeCacheFile(sha, { XDG_CACHE_HOME: "/var/cache/me" })).toBe(
    path.join("/var/cache/me", "pulumi-resource-squarecloud", name),
  );
  // A relative XDG_CACHE_HOME is to be ignored, as the XDG specification says.
  expect(codeCacheFile(sha, { XDG_CACHE_HOME: "cache" })).toMatch(
    new RegExp(`\\.cache/pulumi-resource-squarecloud/${name.replace(/\./g, "\\.")}$`),
  );
});

test("the first run writes the cache; the next run compiles from it and writes nothing", () => {
  jest.useFakeTimers();
  const file = bundle();
  const cache = path.join(scratch, "cache", "plugin.v8cache");
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: false });
  afterStart();
  const written = statSync(cache).mtimeMs;
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: true });
  expect(runs()).toEqual([file, file]);
  expect(statSync(cache).mtimeMs).toBe(written);
});

test("a start that answers a method its cache has not seen writes the cache again, once", () => {
  jest.useFakeTimers();
  const file = bundle();
  const cache = path.join(scratch, "plugin.v8cache");
  const answer = (method: string) => (process as NodeJS.EventEmitter).emit(FIRST_ANSWER_EVENT, method);
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: false });
  answer("check");
  afterStart();
  const afterUp = readFileSync(cache);

  // The next start, a refresh: its reads are new to the cache, which is written with them.
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: true });
  answer("check");
  afterStart();
  expect(readFileSync(cache)).toEqual(afterUp);
  answer("read");
  afterStart();
  const afterRefresh = readFileSync(cache);
  expect(afterRefresh).not.toEqual(afterUp);

  // A start that answers only what the cache has seen leaves it as it is.
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: true });
  answer("read");
  answer("check");
  afterStart();
  expect(readFileSync(cache)).toEqual(afterRefresh);
  expect(runs()).toEqual([file, file, file]);
});

test("a cache V8 refuses is replaced by one it takes", () => {
  jest.useFakeTimers();
  const file = bundle();
  const cache = path.join(scratch, "plugin.v8cache");
  writeFileSync(cache, "not a code cache");
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: false });
  afterStart();
  expect(readFileSync(cache).toString()).not.toBe("not a code cache");
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: true });
});

test("without a cache directory, or with one that cannot be written, the bundle runs all the same", () => {
  const file = bundle();
  writeFileSync(path.join(scratch, "not-a-dir"), "");
  expect(runWithCodeCache(file, undefined)).toEqual({ fromCache: false });
  expect(runWithCodeCache(file, path.join(scratch, "not-a-dir", "plugin.v8cache"))).toEqual({ fromCache: false });
  expect(runs()).toEqual([file, file]);
});

const DAY_MS = 24 * 3600_000;

/** Writes `file` with a modification time `daysAgo` days before now. */
function writtenDaysAgo(file: string, daysAgo: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "x");
  const then = new Date(Date.now() - daysAgo * DAY_MS);
  utimesSync(file, then, then);
}

test("a build's first cache removes other builds' caches unused for 30 days, and nothing else", () => {
  const dir = path.join(scratch, "cache");
  const cache = path.join(dir, "new-build.v8cache");
  writtenDaysAgo(path.join(dir, "old-build.v8cache"), 40);
  writtenDaysAgo(path.join(dir, "other-build.v8cache"), 10);
  writtenDaysAgo(path.join(dir, "notes.txt"), 40);
  jest.useFakeTimers();
  runWithCodeCache(bundle(), cache);
  afterStart();
  expect(existsSync(cache)).toBe(true);
  expect(existsSync(path.join(dir, "old-build.v8cache"))).toBe(false);
  expect(existsSync(path.join(dir, "other-build.v8cache"))).toBe(true);
  expect(existsSync(path.join(dir, "notes.txt"))).toBe(true);
});

test("a cache in use is marked used once a day, so no other build's first start removes it", () => {
  jest.useFakeTimers();
  const file = bundle();
  const cache = path.join(scratch, "cache", "plugin.v8cache");
  runWithCodeCache(file, cache);
  afterStart();
  const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
  utimesSync(cache, twoDaysAgo, twoDaysAgo);
  expect(runWithCodeCache(file, cache)).toEqual({ fromCache: true });
  expect(Date.now() - statSync(cache).mtimeMs).toBeLessThan(DAY_MS);
});
