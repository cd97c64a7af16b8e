/**
 * BlobFolder's synced mode against a plain script, on three paths: the TypeScript SDK's program
 * with its dynamic provider, and a Pulumi YAML program with the native plugin, bundled from dist/
 * and run by the node on PATH, or from the release archive with its own Node (bench:native's
 * paths). With the emulator adding 50 ms to every request (bench/latency.ts's way), one run times, for a folder of 2,000 files of 1 to 64 KiB:
 * - a plain undici script that uploads the same files, as many at a time (the API's 4 uploads in
 *   flight per account);
 * - on each path, the first `up`, beside the plain script; an `up` after changing one file (one
 *   upload and one delete expected); a `preview` of the unchanged folder (no upload expected);
 *   each beside the same command on a folder of 3 files (the engine's, the program's and the
 *   provider's cost whatever the folder's size, at the machine's load of the moment);
 * and, without the added latency (memory does not depend on it), each process's peak resident
 * memory during the first `up` of 2,000 and of 20,000 files on each path. Each `pulumi` command
 * is given with its CPU time (the whole process tree's) and the machine's load when it started:
 * on a shared machine, CPU time moves far less than wall time.
 *
 *   npm run bench:synced                       # 2,000 timed, memory at 2,000 and 20,000, both paths
 *   BENCH_N=500 npm run bench:synced           # a smaller timed folder; BENCH_MEMORY_N=2000,5000 for memory
 *   BENCH_MEMORY_N=none npm run bench:synced   # the timings alone
 *   npm run bench:synced -- --paths yaml       # one path (typescript, yaml, yamlArchive)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import * as path from "node:path";
import { FormData, Pool } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { AccountLimits } from "../provider/client/pacing";
import { objectNameFor } from "../provider/components/blob-folder-files";
import { mimeTypeForPath } from "../provider/kinds/blob-object";
import { benchPlugin } from "./lib/blob-stack";
import { measure } from "./lib/cpu";
import { BENCH_ACCOUNT, freshAccount, providerConfig } from "./lib/emulator-account";
import { option } from "./lib/options";
import { type BenchPath, parsePaths } from "./lib/paths";
import { describeMachine, machine, writeResults } from "./lib/report";
import { watchPeakRss } from "./lib/rss";
import { type BenchProgram, type BenchStack, benchStack, scratchRoot, timed, writeFiles } from "./lib/stack";
import {
  FLOOR_FILES,
  type FolderRun,
  type MemoryRun,
  memoryTable,
  type PathRun,
  type PlainRun,
  SYNCED_PATH_LABELS,
  SYNCED_PATHS,
  type SyncedPath,
  type Timed,
  timingsTable,
} from "./lib/synced-report";

const LATENCY_MS = 50;
const PREFIX = "bench_site";
const MIN_BYTES = 1024;
const MAX_BYTES = 64 * 1024;

const numbers = (value: string | undefined, defaults: number[]) =>
  value === "none" ? [] : value ? value.split(",").map(Number) : defaults;

/** The YAML program of the native paths: the directory `site` published as one BlobFolder. */
const YAML_PROGRAM: BenchProgram = {
  name: "synced-folder-yaml",
  yaml: {
    resources: {
      site: {
        type: "squarecloud:index:BlobFolder",
        properties: { directory: "site", prefix: PREFIX, managedObjects: false },
      },
    },
    outputs: { urls: "${site.urls}" },
  },
};

/**
 * Each path's program, the same folder (the directory `site` published as one BlobFolder), and
 * what serves its resources: the dynamic provider, or the native plugin on one of bench:native's paths.
 */
const PATH_SETUPS: Record<SyncedPath, { program: BenchProgram; provider: BenchPath }> = {
  typescript: { program: "synced-folder", provider: "dynamic" },
  yaml: { program: YAML_PROGRAM, provider: "native" },
  yamlArchive: { program: YAML_PROGRAM, provider: "nativeArchive" },
};

/** A path's program and plugin directory (none for the dynamic provider). */
interface PathSetup {
  path: SyncedPath;
  program: BenchProgram;
  plugin?: string;
}

/** Deterministic files: sizes spread over 1 to 64 KiB by a fixed linear congruential sequence. */
function siteFiles(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  let seed = 12345;
  const extensions = ["html", "css", "js", "json", "txt", "svg"];
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = MIN_BYTES + (seed % (MAX_BYTES - MIN_BYTES + 1));
    const relative = `d${i % 20}/f${String(i).padStart(5, "0")}.${extensions[i % extensions.length]}`;
    files[`site/${relative}`] = `${relative} `.padEnd(size, String.fromCharCode(97 + (i % 26)));
  }
  return files;
}

async function withLatency(emulator: RunningEmulator): Promise<void> {
  await emulator.admin.injectFault({ match: {}, kind: "latency", probability: 1, latencyMs: LATENCY_MS });
}

const loadNow = () => Number(loadavg()[0]!.toFixed(1));

/** One `pulumi` command's cost and load, with the uploads it made (the log is emptied first). */
async function timedCommand(emulator: RunningEmulator, run: () => Promise<unknown>): Promise<Timed> {
  await emulator.admin.clearRequests();
  const load = loadNow();
  const cost = await measure(run);
  const uploads = (await emulator.admin.requests()).filter((e) => e.route === "POST /v1/objects").length;
  return { load, uploads, ...cost };
}

/** The same uploads with undici alone: the same names, prefix and parallelism, no provider. */
async function plainScript(emulator: RunningEmulator, n: number): Promise<PlainRun> {
  const files = siteFiles(n);
  const workDir = path.join(scratchRoot, `plain-${process.pid}`);
  mkdirSync(workDir, { recursive: true });
  writeFiles(workDir, files);
  await freshAccount(emulator);
  await withLatency(emulator);
  const pool = new Pool(emulator.blobUrl, { connections: AccountLimits.MAX_UPLOADS_IN_FLIGHT });
  const paths = Object.keys(files);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const file = paths[next++]!;
      const relative = file.slice("site/".length);
      const form = new FormData();
      const content = readFileSync(path.join(workDir, file));
      form.append("file", new Blob([content], { type: mimeTypeForPath(relative) }), objectNameFor(relative));
      const query = new URLSearchParams({ name: objectNameFor(relative), prefix: PREFIX });
      const answer = await pool.request({
        method: "POST",
        path: `/v1/objects?${query}`,
        headers: { authorization: BENCH_ACCOUNT.apiKey },
        body: form,
      });
      await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`plain upload of ${relative}: ${answer.statusCode}`);
    }
  };
  try {
    const load = loadNow();
    const wallMs = await timed(() => Promise.all(Array.from({ length: AccountLimits.MAX_UPLOADS_IN_FLIGHT }, worker)));
    return { files: n, wallMs, load, uploads: paths.length };
  } finally {
    await pool.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** A fresh stack of `n` files on a path, against a fresh account; destroyed and removed after `work`. */
async function withFolder<T>(
  emulator: RunningEmulator,
  setup: PathSetup,
  n: number,
  work: (folder: BenchStack, files: Record<string, string>) => Promise<T>,
): Promise<T> {
  const files = siteFiles(n);
  await freshAccount(emulator);
  const folder = await benchStack(setup.program, providerConfig(emulator), files, setup.plugin);
  try {
    const result = await work(folder, files);
    await emulator.admin.clearFaults();
    await folder.stack.destroy();
    return result;
  } finally {
    folder.dispose();
  }
}

/** The first `up` of n files, an `up` after changing one, and a `preview` of the unchanged folder. */
function folderRun(emulator: RunningEmulator, setup: PathSetup, n: number): Promise<FolderRun> {
  return withFolder(emulator, setup, n, async ({ stack, workDir }, files) => {
    await withLatency(emulator);
    const up = await timedCommand(emulator, () => stack.up());
    const [first] = Object.keys(files);
    writeFileSync(path.join(workDir, first!), `${files[first!]!}changed`);
    const changeOne = await timedCommand(emulator, () => stack.up());
    const preview = await timedCommand(emulator, () => stack.preview());
    return { files: n, up, changeOne, preview };
  });
}

function memoryRun(emulator: RunningEmulator, setup: PathSetup, n: number) {
  return withFolder(emulator, setup, n, async ({ stack }) => {
    const watch = watchPeakRss();
    await stack.up();
    return watch.stop();
  });
}

async function main(): Promise<void> {
  const host = machine();
  const [n] = numbers(process.env.BENCH_N, [2000]);
  const memorySizes = numbers(process.env.BENCH_MEMORY_N, [2000, 20000]);
  const paths = parsePaths(option("paths", SYNCED_PATHS.join(",")), SYNCED_PATHS);
  process.stdout.write(
    `machine: ${describeMachine(host)}\npaths: ${paths.join(", ")}\n${LATENCY_MS} ms added to every timed request\n`,
  );
  // Each plugin bundled once for the run.
  const setups: PathSetup[] = paths.map((benchPath) => ({
    path: benchPath,
    program: PATH_SETUPS[benchPath].program,
    plugin: benchPlugin(PATH_SETUPS[benchPath].provider),
  }));
  const emulator = await startEmulator({ admin: true });
  const runs: PathRun[] = [];
  const memory: MemoryRun[] = [];
  let plain: PlainRun;
  try {
    plain = await plainScript(emulator, n!);
    process.stdout.write(`  plain script, ${n} files, timed\n`);
    for (const setup of setups) {
      // The floor just before the folder it is the floor of, so both run at about the same load.
      const floor = await folderRun(emulator, setup, FLOOR_FILES);
      const timedRun = await folderRun(emulator, setup, n!);
      runs.push({ path: setup.path, timed: timedRun, floor });
      process.stdout.write(`  ${SYNCED_PATH_LABELS[setup.path]}: ${FLOOR_FILES} and ${n} files timed\n`);
    }
    for (const files of memorySizes)
      for (const setup of setups) {
        memory.push({ files, path: setup.path, peaks: await memoryRun(emulator, setup, files) });
        process.stdout.write(`  ${SYNCED_PATH_LABELS[setup.path]}: memory at ${files} files measured\n`);
      }
  } finally {
    await emulator.close();
  }
  process.stdout.write(`\n${timingsTable(plain, runs)}\n`);
  if (memory.length > 0) process.stdout.write(`\n${memoryTable(memory)}\n`);
  const file = writeResults("synced-folder", {
    at: new Date().toISOString(),
    machine: host,
    latencyMs: LATENCY_MS,
    plain,
    runs,
    memory,
  });
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
