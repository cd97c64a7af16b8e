/**
 * Many stacks of one account at once, against what the account's limits allow. The emulator
 * enforces them across the stacks' processes, as the live service does per account: one app
 * snapshot per 5 s, 4 uploads in flight, and a request rate (50 per second here: the live one is
 * not published), with 50 ms added to every request. Each stack holds 2 databases, a workspace
 * with 2 members, 20 blob objects, a synced folder of 200 files and an app snapshot
 * (tests/e2e/reliability/account-fleet.ts); all of them run `up` at once, then a change at once,
 * then `destroy` at once: 8 TypeScript stacks, then 4 in three languages (TypeScript, YAML,
 * Python). Per phase: the wall time beside the floor the limits allow for that work, their ratio,
 * the CPU time of every process the phase started (the machine's own bound: CPU / cores), the
 * requests the account admitted per second (beside its 50), the 429s met, objects on the account that no state records, and whether every stack's command
 * succeeded the first time; then when the first request, each admitted app snapshot and the last
 * request reached the API.
 *
 *   npm run bench:stacks                          # 8 TypeScript stacks, then 4 mixed
 *   npm run bench:stacks -- --fleets typescript   # one of: typescript, mixed
 */
import { availableParallelism, loadavg } from "node:os";
import { type RequestLogEntry, startEmulator, type RunningEmulator } from "../emulator";
import { AccountLimits } from "../provider/client/pacing";
import {
  allAtOnce,
  type Fleet,
  type FleetLanguage,
  type FleetShape,
  fleetDiscrepancies,
  openFleet,
  refusalsByRoute,
} from "../tests/e2e/reliability/account-fleet";
import { measure } from "./lib/cpu";
import { option } from "./lib/options";
import { describeMachine, machine, table, writeResults } from "./lib/report";

const LATENCY_MS = 50;
const REQUEST_RATE = { requests: 50, windowMs: 1_000 };
const STACK_SHAPE = { objects: 20, folderFiles: 200, changedObjects: 4, changedFiles: 20 };

const FLEETS: Record<string, FleetLanguage[]> = {
  typescript: Array.from({ length: 8 }, () => "typescript"),
  mixed: ["typescript", "yaml", "python", "typescript"],
};

type Phase = "up" | "change" | "destroy";

const SNAPSHOT_ROUTE = "POST /v2/apps/:id/snapshots";

/** The requests a phase cannot do without, for one stack: its writes, of them uploads, and snapshots. */
interface Work {
  writes: number;
  uploads: number;
  snapshots: number;
}

function workOf(phase: Phase, shape: FleetShape): Work {
  const files = shape.objects + shape.folderFiles;
  switch (phase) {
    case "up":
      // 2 databases, a workspace, 2 members, every object and file, a snapshot.
      return { writes: 5 + files + 1, uploads: files, snapshots: 1 };
    case "change": {
      // A database resized, a member regrouped; each changed object and file uploaded anew and
      // its old object deleted; a new snapshot.
      const changed = shape.changedObjects + shape.changedFiles;
      return { writes: 2 + 2 * changed + 1, uploads: changed, snapshots: 1 };
    }
    case "destroy":
      return { writes: 5 + files, uploads: 0, snapshots: 0 };
  }
}

/** What the account's limits allow, each on its own; the floor is the largest. */
interface Floor {
  snapshotsMs: number;
  uploadsMs: number;
  rateMs: number;
  floorMs: number;
}

function floorOf(work: Work, stacks: number): Floor {
  const snapshots = work.snapshots * stacks;
  const uploads = work.uploads * stacks;
  const writes = work.writes * stacks;
  // One snapshot per 5 s: the last of n starts (n - 1) windows after the first.
  const snapshotsMs = snapshots > 0 ? (snapshots - 1) * AccountLimits.APP_SNAPSHOT_INTERVAL_MS + LATENCY_MS : 0;
  // 4 in flight, each holding its slot for at least the latency.
  const uploadsMs = (uploads * LATENCY_MS) / AccountLimits.MAX_UPLOADS_IN_FLIGHT;
  // A window's worth at once, then one window per further window's worth.
  const rateMs =
    Math.max(0, (writes - REQUEST_RATE.requests) / REQUEST_RATE.requests) * REQUEST_RATE.windowMs + LATENCY_MS;
  return { snapshotsMs, uploadsMs, rateMs, floorMs: Math.max(snapshotsMs, uploadsMs, rateMs) };
}

interface PhaseRun extends Floor {
  fleet: string;
  phase: Phase;
  stacks: number;
  wallMs: number;
  cpuMs: number;
  benchCpuMs: number;
  load: number;
  requests: number;
  refusals: Record<string, number>;
  unrecorded: string[];
  missing: string[];
  failed: { tag: string; error?: string }[];
}

const loadNow = () => Number(loadavg()[0]!.toFixed(1));

async function phaseRun(
  emulator: RunningEmulator,
  fleetName: string,
  fleet: Fleet,
  phase: Phase,
  command: (stack: Fleet["stacks"][number]) => Promise<unknown>,
): Promise<PhaseRun> {
  await emulator.admin.clearRequests();
  await emulator.admin.injectFault({ match: {}, kind: "latency", probability: 1, latencyMs: LATENCY_MS });
  const load = loadNow();
  const startedAt = await emulator.admin.clock();
  let outcomes: Awaited<ReturnType<typeof allAtOnce>> = [];
  const cost = await measure(async () => {
    outcomes = await allAtOnce(fleet, command);
  });
  await emulator.admin.clearFaults();
  const log = await emulator.admin.requests();
  const refusals = await refusalsByRoute(emulator);
  const found = await fleetDiscrepancies(emulator, fleet);
  const run: PhaseRun = {
    fleet: fleetName,
    phase,
    stacks: fleet.stacks.length,
    ...cost,
    ...floorOf(workOf(phase, fleet.shape), fleet.stacks.length),
    load,
    requests: log.length,
    refusals,
    ...found,
    failed: outcomes.filter((o) => !o.ok).map(({ tag, error }) => ({ tag, error })),
  };
  const ratio = (run.wallMs / run.floorMs).toFixed(2);
  process.stdout.write(
    `  ${fleetName} ${phase}: ${(run.wallMs / 1000).toFixed(1)} s, floor ${(run.floorMs / 1000).toFixed(1)} s (${ratio}x), ${run.failed.length} failed\n`,
  );
  process.stdout.write(`    ${timeline(log, startedAt)}\n`);
  for (const f of run.failed) process.stdout.write(`    ${f.tag}:\n${f.error}\n`);
  return run;
}

/**
 * Where a phase's time went, on the emulator's clock from the phase's start: when the first
 * request arrived (the engines and programs starting), when each app snapshot was admitted (the
 * limit that sets the floor: one per 5 s), and when the last request arrived (after it, the
 * engines only write state and exit).
 */
function timeline(log: RequestLogEntry[], startedAt: number): string {
  if (log.length === 0) return "no request";
  const offset = (entry: RequestLogEntry) => seconds(Date.parse(entry.at) - startedAt);
  const snapshots = log.filter((entry) => entry.route === SNAPSHOT_ROUTE && entry.status < 400).map(offset);
  const taken = snapshots.length > 0 ? `; snapshots admitted at ${snapshots.join(", ")} s` : "";
  return `first request at ${offset(log[0]!)} s${taken}; last request at ${offset(log[log.length - 1]!)} s`;
}

async function fleetRun(emulator: RunningEmulator, name: string): Promise<PhaseRun[]> {
  const fleet = await openFleet(emulator, { languages: FLEETS[name]!, ...STACK_SHAPE });
  try {
    const runs = [await phaseRun(emulator, name, fleet, "up", (s) => s.program.stack.up())];
    for (const stack of fleet.stacks) await stack.declare(2);
    runs.push(await phaseRun(emulator, name, fleet, "change", (s) => s.program.stack.up()));
    runs.push(await phaseRun(emulator, name, fleet, "destroy", (s) => s.program.stack.destroy()));
    return runs;
  } finally {
    await fleet.dispose();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const refused = (r: PhaseRun) => Object.values(r.refusals).reduce((sum, n) => sum + n, 0);

function report(runs: PhaseRun[], cores: number): string {
  const header = [
    "fleet",
    "phase",
    "stacks",
    "wall s",
    "floor s",
    "ratio",
    "snapshots s",
    "uploads s",
    "rate s",
    "CPU s / cores",
    "requests",
    "admitted/s",
    "429s",
    "unrecorded",
    "all first time",
    "load",
  ];
  const rows = runs.map((r) => [
    r.fleet,
    r.phase,
    String(r.stacks),
    seconds(r.wallMs),
    seconds(r.floorMs),
    `${(r.wallMs / r.floorMs).toFixed(2)}x`,
    seconds(r.snapshotsMs),
    seconds(r.uploadsMs),
    seconds(r.rateMs),
    seconds(r.cpuMs / cores),
    String(r.requests),
    ((r.requests - refused(r)) / (r.wallMs / 1000)).toFixed(1),
    String(refused(r)),
    String(r.unrecorded.length),
    r.failed.length === 0 ? "yes" : `no (${r.failed.length})`,
    String(r.load),
  ]);
  return table(header, rows);
}

async function main(): Promise<void> {
  const host = machine();
  const names = option("fleets", Object.keys(FLEETS).join(",")).split(",");
  for (const name of names) if (!(name in FLEETS)) throw new Error(`--fleets takes ${Object.keys(FLEETS).join(", ")}`);
  process.stdout.write(
    `machine: ${describeMachine(host)}\n${LATENCY_MS} ms added to every request; ${REQUEST_RATE.requests} requests per ${REQUEST_RATE.windowMs / 1000} s per account\n`,
  );
  const emulator = await startEmulator({ admin: true, requestRate: REQUEST_RATE });
  const runs: PhaseRun[] = [];
  try {
    for (const name of names) runs.push(...(await fleetRun(emulator, name)));
  } finally {
    await emulator.close();
  }
  process.stdout.write(`\n${report(runs, availableParallelism())}\n`);
  for (const r of runs) {
    process.stdout.write(`\n${r.fleet} ${r.phase} 429s by route: ${JSON.stringify(r.refusals)}`);
    if (r.unrecorded.length + r.missing.length > 0)
      process.stdout.write(`\n  unrecorded: ${r.unrecorded.join(", ")}; missing: ${r.missing.join(", ")}`);
  }
  const file = writeResults("parallel-stacks", { at: new Date().toISOString(), machine: host, runs });
  process.stdout.write(`\n\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
