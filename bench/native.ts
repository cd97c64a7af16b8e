/**
 * The native plugin next to the dynamic provider and next to the floors of both (lib/paths.ts):
 * for each N, one stack of N blob objects per path goes through up, preview, refresh and destroy,
 * with the real CLI against the in-process emulator (no added latency), `--repeats` times. Within
 * a repeat each operation runs on every path back to back, in an order that turns by one path each
 * repeat, so a change of load on a shared machine weighs on all alike. Prints per operation each
 * path's median wall time with its range, and the ratios of each plugin to its floor and of the
 * native plugin to the dynamic provider, taken repeat by repeat, as median and range; then the same for CPU time, of the
 * processes the operation started and of the bench's own process, where the emulator answers.
 *
 *   npm run bench:native                                   # N = 100, 500; 5 repeats; every path
 *   BENCH_N=20 npm run bench:native -- --repeats 2
 *   npm run bench:native -- --paths native,nativeFloor,dynamic
 *   npm run bench:native -- --paths native,nativeArchive,nativeFloor,archiveFloor   # after npm run build:plugin
 */
import { loadavg } from "node:os";
import { startEmulator, type RunningEmulator } from "../emulator";
import { freshAccount } from "./lib/emulator-account";
import { blobStack } from "./lib/blob-stack";
import { type Cost, measure } from "./lib/cpu";
import { expectChanges } from "./lib/mix-stack";
import { integerOption, option } from "./lib/options";
import { type BenchPath, parsePaths, PATH_LABELS, PATHS } from "./lib/paths";
import { describeMachine, machine, sizes, table, writeResults } from "./lib/report";
import { formatSpread, pairedRatios, spread } from "./lib/spread";
import type { BenchStack } from "./lib/stack";

const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

/** What each operation cost, one per repeat, by operation and path. */
type Samples = Record<Operation, Partial<Record<BenchPath, Cost[]>>>;

interface SizeRun {
  n: number;
  samples: Samples;
  /** API requests each operation made on each path, in the last repeat. */
  requests: Record<Operation, Partial<Record<BenchPath, number>>>;
  /** 1-minute load average at the start of each repeat. */
  loads: number[];
}

/** The ratios printed, when both of their paths ran. */
const RATIOS: { label: string; numerator: BenchPath; denominator: BenchPath }[] = [
  { label: "native/floor", numerator: "native", denominator: "nativeFloor" },
  { label: "archive/floor", numerator: "nativeArchive", denominator: "nativeFloor" },
  { label: "archive/archive floor", numerator: "nativeArchive", denominator: "archiveFloor" },
  { label: "native/dynamic", numerator: "native", denominator: "dynamic" },
  { label: "dynamic/floor", numerator: "dynamic", denominator: "dynamicFloor" },
];

/** Each operation does all its work or the run stops: a timing of less work would mislead. */
function step(stack: BenchStack, n: number, operation: Operation): Promise<unknown> {
  const stackAndN = n + 1;
  switch (operation) {
    case "up":
      return stack.stack.up().then((result) => expectChanges(result, "create", stackAndN));
    case "preview":
      return stack.stack.preview().then((result) => expectChanges(result, "same", stackAndN));
    case "refresh":
      return stack.stack.refresh().then((result) => expectChanges(result, "same", stackAndN));
    case "destroy":
      return stack.stack.destroy().then((result) => expectChanges(result, "delete", stackAndN));
  }
}

/** The paths in the order of repeat `r`: the list turned by r, so none always runs first. */
function orderOf(paths: BenchPath[], r: number): BenchPath[] {
  const shift = r % paths.length;
  return [...paths.slice(shift), ...paths.slice(0, shift)];
}

async function runSize(emulator: RunningEmulator, n: number, paths: BenchPath[], repeats: number): Promise<SizeRun> {
  await freshAccount(emulator);
  const stacks: Partial<Record<BenchPath, BenchStack>> = {};
  const samples = Object.fromEntries(
    OPERATIONS.map((op) => [op, Object.fromEntries(paths.map((p) => [p, [] as Cost[]]))]),
  ) as Samples;
  const requests = Object.fromEntries(OPERATIONS.map((op) => [op, {}])) as SizeRun["requests"];
  const loads: number[] = [];
  try {
    for (const benchPath of paths) stacks[benchPath] = await blobStack(emulator, n, benchPath);
    for (let r = 0; r < repeats; r++) {
      loads.push(loadavg()[0]!);
      for (const operation of OPERATIONS) {
        for (const benchPath of orderOf(paths, r)) {
          // The emulator keeps a log of every request; emptied so it does not grow over the run.
          await emulator.admin.clearRequests();
          const cost = await measure(() => step(stacks[benchPath]!, n, operation));
          samples[operation][benchPath]!.push(cost);
          requests[operation][benchPath] = Object.values(await emulator.admin.counters()).reduce(
            (sum, count) => sum + count,
            0,
          );
          process.stdout.write(
            `  N=${n} repeat ${r + 1}/${repeats} ${operation} ${PATH_LABELS[benchPath]}: ${seconds(cost.wallMs)} s, CPU ${seconds(cost.cpuMs)} s (load ${loadavg()[0]!.toFixed(1)})\n`,
          );
        }
      }
    }
  } finally {
    for (const stack of Object.values(stacks)) stack.dispose();
  }
  return { n, samples, requests, loads };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const wall = (cost: Cost) => cost.wallMs;

/**
 * Per operation, one measure of each path (median and range, in s with `digits` decimals) and,
 * with `withRatios`, the ratios between paths, repeat by repeat.
 */
function costTable(
  runs: SizeRun[],
  paths: BenchPath[],
  measureOf: (cost: Cost) => number,
  withRatios = true,
  digits = 1,
): string {
  const ratios = withRatios
    ? RATIOS.filter((ratio) => paths.includes(ratio.numerator) && paths.includes(ratio.denominator))
    : [];
  const header = ["N", "operation", ...paths.map((p) => `${PATH_LABELS[p]} s`), ...ratios.map((ratio) => ratio.label)];
  const rows = runs.flatMap(({ n, samples }) =>
    OPERATIONS.map((op) => [
      String(n),
      op,
      ...paths.map((p) => formatSpread(spread(samples[op][p]!.map(measureOf)), digits, 1000)),
      ...ratios.map(({ numerator, denominator }) =>
        formatSpread(
          spread(pairedRatios(samples[op][numerator]!.map(measureOf), samples[op][denominator]!.map(measureOf))),
          2,
        ),
      ),
    ]),
  );
  return table(header, rows);
}

function requestsTable(runs: SizeRun[], paths: BenchPath[]): string {
  const rows = runs.flatMap(({ n, requests }) =>
    OPERATIONS.map((op) => [String(n), op, ...paths.map((p) => String(requests[op][p]))]),
  );
  return table(["N", "operation", ...paths.map((p) => PATH_LABELS[p])], rows);
}

async function main(): Promise<void> {
  const host = machine();
  const ns = sizes([100, 500]);
  const repeats = integerOption("repeats", 5, 1);
  const paths = parsePaths(option("paths", PATHS.join(",")));
  process.stdout.write(
    `machine: ${describeMachine(host)}\nN: ${ns.join(", ")}; ${repeats} repeats; paths: ${paths.join(", ")}\n`,
  );
  const emulator = await startEmulator({ admin: true });
  const runs: SizeRun[] = [];
  try {
    for (const n of ns) {
      runs.push(await runSize(emulator, n, paths, repeats));
      // Each size's table and results as soon as it is done, so a run stopped at a larger N keeps the smaller ones.
      process.stdout.write(`\n${costTable(runs.slice(-1), paths, wall)}\n\n`);
      writeResults("native", { at: new Date().toISOString(), machine: host, repeats, paths, runs });
    }
  } finally {
    await emulator.close();
  }
  const loadAtEnd = Number(loadavg()[0]!.toFixed(2));
  const heading = `median (min-max) of ${repeats} repeats; ratios taken repeat by repeat`;
  process.stdout.write(`\nWall time of N blob objects, ${heading}:\n${costTable(runs, paths, wall)}\n`);
  process.stdout.write(
    `\nCPU time of the processes each operation started, ${heading}:\n${costTable(runs, paths, (cost) => cost.cpuMs)}\n`,
  );
  process.stdout.write(
    `\nCPU time of the bench process (the emulator, the Automation API), median (min-max) of ${repeats} repeats:\n${costTable(runs, paths, (cost) => cost.benchCpuMs, false, 2)}\n`,
  );
  const repeatLoads = runs
    .map(({ n, loads }) => `N=${n}: ${loads.map((load) => load.toFixed(1)).join(", ")}`)
    .join("; ");
  process.stdout.write(
    `load average: ${host.loadAtStart} at start, ${loadAtEnd} at end; at the start of each repeat, ${repeatLoads}\n`,
  );
  process.stdout.write(`\nAPI requests per operation (the floors make none):\n${requestsTable(runs, paths)}\n`);
  const file = writeResults("native", { at: new Date().toISOString(), machine: host, loadAtEnd, repeats, paths, runs });
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
