/**
 * BlobFolder's synced mode against a plain script. With the emulator adding 50 ms to every request
 * (bench/latency.ts's way), one run times, for a folder of 2,000 files of 1 to 64 KiB:
 * - the first `up`, beside a plain undici script that uploads the same files, as many at a time
 *   (the API's 4 uploads in flight per account);
 * - an `up` after changing one file (one upload and one delete expected);
 * - a `preview` of the unchanged folder (no upload expected);
 * each of the last two beside the same commands on a folder of 3 files (the engine's, the program's
 * and the provider's cost whatever the folder's size, at the machine's load of the moment); and,
 * without the added latency (memory does not depend on it), the provider process's peak resident
 * memory during the first `up` of 2,000 and of 20,000 files. Each `pulumi` command is given with
 * its CPU time (the whole process tree's) and the machine's load when it started: on a shared
 * machine, CPU time moves far less than wall time.
 *
 *   npm run bench:synced                       # 2,000 timed, memory at 2,000 and 20,000
 *   BENCH_N=500 npm run bench:synced           # a smaller timed folder; BENCH_MEMORY_N=2000,5000 for memory
 *   BENCH_MEMORY_N=none npm run bench:synced   # the timings alone (about 5 minutes)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import * as path from "node:path";
import { FormData, Pool } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { AccountLimits } from "../provider/client/pacing";
import { objectNameFor } from "../provider/components/blob-folder-files";
import { mimeTypeForPath } from "../provider/kinds/blob-object";
import { BENCH_ACCOUNT, freshAccount, providerConfig } from "./lib/emulator-account";
import { describeMachine, machine, table, writeResults } from "./lib/report";
import { type RolePeak, watchPeakRss } from "./lib/rss";
import { type Cost, measure } from "./lib/cpu";
import { benchStack, timed } from "./lib/stack";

const LATENCY_MS = 50;
const PREFIX = "bench_site";
const MIN_BYTES = 1024;
const MAX_BYTES = 64 * 1024;

const numbers = (value: string | undefined, defaults: number[]) =>
  value === "none" ? [] : value ? value.split(",").map(Number) : defaults;

/** One `pulumi` command's wall and CPU time, with the 1-minute load average when it started. */
interface Timed extends Cost {
  load: number;
}

async function timedCommand(run: () => Promise<unknown>): Promise<Timed> {
  const load = Number(loadavg()[0]!.toFixed(1));
  return { load, ...(await measure(run)) };
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

async function postCount(emulator: RunningEmulator): Promise<number> {
  return (await emulator.admin.requests()).filter((e) => e.route === "POST /v1/objects").length;
}

/** The same uploads with undici alone: the same names, prefix and parallelism, no provider. */
async function plainScript(emulator: RunningEmulator, files: Record<string, string>, workDir: string): Promise<number> {
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
    return await timed(() => Promise.all(Array.from({ length: AccountLimits.MAX_UPLOADS_IN_FLIGHT }, worker)));
  } finally {
    await pool.close();
  }
}

interface Timings {
  n: number;
  plainMs: number;
  plainLoad: number;
  up: Timed;
  upPosts: number;
  changeOne: Timed;
  changeOnePosts: number;
  preview: Timed;
  previewPosts: number;
}

async function timedRun(emulator: RunningEmulator, n: number): Promise<Timings> {
  const files = siteFiles(n);
  await freshAccount(emulator);
  const { stack, workDir, dispose } = await benchStack("synced-folder", providerConfig(emulator), files);
  try {
    await withLatency(emulator);
    const plainLoad = Number(loadavg()[0]!.toFixed(1));
    const plainMs = await plainScript(emulator, files, workDir);
    await freshAccount(emulator);
    await withLatency(emulator);
    const up = await timedCommand(() => stack.up());
    const upPosts = await postCount(emulator);

    const [first] = Object.keys(files);
    writeFileSync(path.join(workDir, first!), `${files[first!]!}changed`);
    await emulator.admin.clearRequests();
    const changeOne = await timedCommand(() => stack.up());
    const changeOnePosts = await postCount(emulator);

    await emulator.admin.clearRequests();
    const preview = await timedCommand(() => stack.preview());
    const previewPosts = await postCount(emulator);

    await emulator.admin.clearFaults();
    await stack.destroy();
    return { n, plainMs, plainLoad, up, upPosts, changeOne, changeOnePosts, preview, previewPosts };
  } finally {
    dispose();
  }
}

/**
 * The same preview and one-file update of a folder of FLOOR_FILES files: what the engine, the
 * program and the provider cost whatever the folder's size, on this machine at this load.
 */
const FLOOR_FILES = 3;

async function floorRun(emulator: RunningEmulator): Promise<Pick<Timings, "changeOne" | "preview">> {
  const files = siteFiles(FLOOR_FILES);
  await freshAccount(emulator);
  const { stack, workDir, dispose } = await benchStack("synced-folder", providerConfig(emulator), files);
  try {
    await withLatency(emulator);
    await stack.up();
    const [first] = Object.keys(files);
    writeFileSync(path.join(workDir, first!), `${files[first!]!}changed`);
    const changeOne = await timedCommand(() => stack.up());
    const preview = await timedCommand(() => stack.preview());
    await emulator.admin.clearFaults();
    await stack.destroy();
    return { changeOne, preview };
  } finally {
    dispose();
  }
}

async function memoryRun(emulator: RunningEmulator, n: number): Promise<RolePeak[]> {
  await freshAccount(emulator);
  const { stack, dispose } = await benchStack("synced-folder", providerConfig(emulator), siteFiles(n));
  try {
    const watch = watchPeakRss();
    await stack.up();
    const peaks = watch.stop();
    await stack.destroy();
    return peaks;
  } finally {
    dispose();
  }
}

async function main(): Promise<void> {
  const host = machine();
  const [n] = numbers(process.env.BENCH_N, [2000]);
  const memorySizes = numbers(process.env.BENCH_MEMORY_N, [2000, 20000]);
  process.stdout.write(`machine: ${describeMachine(host)}\n${LATENCY_MS} ms added to every timed request\n`);
  const emulator = await startEmulator({ admin: true });
  const memory: { n: number; peaks: RolePeak[] }[] = [];
  let timings: Timings;
  let floor: Pick<Timings, "changeOne" | "preview">;
  try {
    floor = await floorRun(emulator);
    process.stdout.write(`  floor (${FLOOR_FILES} files) measured\n`);
    timings = await timedRun(emulator, n!);
    process.stdout.write(`  ${n} files timed\n`);
    for (const size of memorySizes) {
      memory.push({ n: size, peaks: await memoryRun(emulator, size) });
      process.stdout.write(`  memory at ${size} files measured\n`);
    }
  } finally {
    await emulator.close();
  }
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const cost = (t: Timed) => [s(t.wallMs), s(t.cpuMs), String(t.load)];
  const atFloor = (t: Timed) => `${s(t.wallMs)} s (CPU ${s(t.cpuMs)} s, load ${t.load}) at ${FLOOR_FILES} files`;
  process.stdout.write(
    `\n${table(
      ["run", "wall s", "CPU s", "load", "uploads", "beside"],
      [
        [
          `plain undici script, ${timings.n} files, 4 at a time`,
          s(timings.plainMs),
          "-",
          String(timings.plainLoad),
          String(timings.n),
          "-",
        ],
        [
          `first pulumi up, ${timings.n} files`,
          ...cost(timings.up),
          String(timings.upPosts),
          `${(timings.up.wallMs / timings.plainMs).toFixed(2)}x the plain script`,
        ],
        [
          "pulumi up after changing one file",
          ...cost(timings.changeOne),
          String(timings.changeOnePosts),
          `goal < 5 s; ${atFloor(floor.changeOne)}`,
        ],
        [
          "pulumi preview, unchanged",
          ...cost(timings.preview),
          String(timings.previewPosts),
          `goal < 3 s; ${atFloor(floor.preview)}`,
        ],
      ],
    )}\n\n${table(
      ["files", "process", "peak RSS MiB"],
      memory.flatMap(({ n: size, peaks }) => peaks.map((peak) => [String(size), peak.role, String(peak.peakMiB)])),
    )}\n`,
  );
  const file = writeResults("synced-folder", {
    at: new Date().toISOString(),
    machine: host,
    latencyMs: LATENCY_MS,
    timings,
    floor: { files: FLOOR_FILES, ...floor },
    memory,
  });
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
