/**
 * The provider next to the engine's own floor. For each N (10, 100, 500) one stack of our
 * resources (lib/mix.ts) and one of no-op dynamic resources of the same shape (lib/floor.ts) go
 * through up, preview, an update, refresh and destroy, operation by operation, with the real CLI against the in-process
 * emulator (no added latency). Prints wall times side by side with ours/floor, the API requests
 * each operation made per resource next to the least the API allows, and the peak memory of the
 * engine's processes at the largest N.
 *
 *   npm run bench:engine                 # N = 10, 100, 500
 *   npm run bench:engine -- --quick      # N = 10, 100
 *   BENCH_N=50 npm run bench:engine
 */
import { startEmulator, type RunningEmulator } from "../emulator";
import { freshAccount } from "./lib/emulator-account";
import { BLOB_PREFIXES, type Mix } from "./lib/mix";
import { expectChanges, mixStack, type Variant } from "./lib/mix-stack";
import { describeMachine, machine, sizes, table, writeResults } from "./lib/report";
import { mergePeaks, type RolePeak, watchPeakRss } from "./lib/rss";
import { timed } from "./lib/stack";

const OPERATIONS = ["up", "preview", "update", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];
/**
 * Requests are told apart by route: a member's add reads its workspace, so workspaces and members
 * share one row; GET /v2/users/me (the account, with its databases) has its own.
 */
type Kind = "blobs" | "databases" | "workspaces+members" | "account";
const KINDS: Kind[] = ["blobs", "databases", "workspaces+members", "account"];

interface Run {
  n: number;
  variant: Variant;
  mix: Mix;
  ms: Record<Operation, number>;
  /** Emulator request counters (METHOD route -> count) per operation. */
  requests: Record<Operation, Record<string, number>>;
  memory?: RolePeak[];
}

/** Which resource kind a route serves. */
function kindOf(route: string): Kind {
  if (route.includes("/v1/objects")) return "blobs";
  if (route.includes("/v2/databases")) return "databases";
  if (route.includes("/v2/workspaces")) return "workspaces+members";
  return "account";
}

/**
 * The fewest requests the API allows per operation, for the whole mix: see "API requests per
 * operation" in bench/README.md for the reasoning.
 */
function minimumRequests(mix: Mix, operation: Operation): Partial<Record<Kind, number>> {
  switch (operation) {
    case "up":
      // One create each; a member's add answers only {status}, so one read of the workspace tells who joined.
      return { blobs: mix.blobs, databases: mix.databases, "workspaces+members": mix.workspaces + 2 * mix.members };
    case "preview":
      return {};
    case "update":
      return { databases: mix.databases, "workspaces+members": mix.members };
    case "refresh":
      // One unfiltered object listing (1000 objects a page), one GET /v2/users/me for every
      // database, one GET /v2/workspaces for every workspace and member.
      return { blobs: Math.ceil((mix.blobs + 1) / 1000), account: 1, "workspaces+members": 1 };
    case "destroy":
      return { blobs: mix.blobs, databases: mix.databases, "workspaces+members": mix.workspaces + mix.members };
  }
}

/**
 * Both stacks of one N side by side, operation by operation (ours, then the floor), so a change
 * of load on a shared machine weighs on both alike. Only ours makes requests, so the emulator's
 * counters during its operations are ours alone.
 */
async function runPair(emulator: RunningEmulator, n: number, watchMemory: boolean): Promise<Run[]> {
  await freshAccount(emulator);
  const variants = ["ours", "floor"] as const;
  const stacks = { ours: await mixStack(emulator, n, "ours"), floor: await mixStack(emulator, n, "floor") };
  const runs = Object.fromEntries(
    variants.map((variant) => [variant, { n, variant, mix: stacks[variant].mix, ms: {}, requests: {} } as Run]),
  ) as Record<Variant, Run>;
  const peaks: Record<Variant, RolePeak[][]> = { ours: [], floor: [] };
  const { mix } = stacks.ours;
  const steps: Record<Operation, (variant: Variant) => Promise<unknown>> = {
    up: async (v) => expectChanges(await stacks[v].stack.up(), "create", n + 1),
    preview: async (v) => expectChanges(await stacks[v].stack.preview(), "same", n + 1),
    update: async (v) => {
      await stacks[v].stack.setConfig("generation", { value: "2" });
      expectChanges(await stacks[v].stack.up(), "update", mix.databases + mix.members);
    },
    refresh: (v) => stacks[v].stack.refresh(),
    destroy: async (v) => expectChanges(await stacks[v].stack.destroy(), "delete", n + 1),
  };
  try {
    for (const operation of OPERATIONS) {
      for (const variant of variants) {
        await emulator.admin.clearRequests();
        const memory = watchMemory ? watchPeakRss() : undefined;
        const run = runs[variant];
        run.ms[operation] = await timed(() => steps[operation](variant));
        if (memory) peaks[variant].push(memory.stop());
        run.requests[operation] = await emulator.admin.counters();
        process.stdout.write(`  N=${n} ${operation} ${variant}: ${(run.ms[operation] / 1000).toFixed(1)} s\n`);
      }
    }
  } finally {
    for (const variant of variants) stacks[variant].dispose();
  }
  if (watchMemory) for (const variant of variants) runs[variant].memory = mergePeaks(peaks[variant]);
  return variants.map((variant) => runs[variant]);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

function timingTable(runs: Run[]): string {
  const rows: string[][] = [];
  for (const n of [...new Set(runs.map((r) => r.n))]) {
    const ours = runs.find((r) => r.n === n && r.variant === "ours")!;
    const floor = runs.find((r) => r.n === n && r.variant === "floor")!;
    for (const op of OPERATIONS)
      rows.push([String(n), op, seconds(ours.ms[op]), seconds(floor.ms[op]), (ours.ms[op] / floor.ms[op]).toFixed(2)]);
  }
  return table(["N", "operation", "ours s", "floor s", "ours/floor"], rows);
}

function requestsTable(run: Run): string {
  const rows: string[][] = [];
  const resources: Record<Kind, number> = {
    blobs: run.mix.blobs,
    databases: run.mix.databases,
    "workspaces+members": run.mix.workspaces + run.mix.members,
    account: 0,
  };
  for (const op of OPERATIONS) {
    const byKind: Partial<Record<Kind, number>> = {};
    for (const [route, count] of Object.entries(run.requests[op]))
      byKind[kindOf(route)] = (byKind[kindOf(route)] ?? 0) + count;
    const minimum = minimumRequests(run.mix, op);
    const total = Object.values(byKind).reduce((sum, c) => sum + (c ?? 0), 0);
    const least = Object.values(minimum).reduce((sum, c) => sum + (c ?? 0), 0);
    rows.push([
      op,
      "all",
      String(run.n),
      String(total),
      (total / run.n).toFixed(2),
      String(least),
      (least / run.n).toFixed(2),
    ]);
    for (const kind of KINDS) {
      const made = byKind[kind] ?? 0;
      const fewest = minimum[kind] ?? 0;
      if (made === 0 && fewest === 0) continue;
      const per = (count: number) => (resources[kind] ? (count / resources[kind]).toFixed(2) : "-");
      rows.push([
        "",
        kind,
        resources[kind] ? String(resources[kind]) : "-",
        String(made),
        per(made),
        String(fewest),
        per(fewest),
      ]);
    }
  }
  return table(["operation", "kind", "resources", "requests", "per resource", "minimum", "min per resource"], rows);
}

function routesTable(run: Run): string {
  const routes = [...new Set(OPERATIONS.flatMap((op) => Object.keys(run.requests[op])))].sort();
  return table(
    ["route", ...OPERATIONS],
    routes.map((route) => [route, ...OPERATIONS.map((op) => String(run.requests[op][route] ?? 0))]),
  );
}

function memoryTable(runs: Run[]): string {
  const rows = runs.flatMap((run) =>
    (run.memory ?? []).map((peak) => [
      `${run.variant} N=${run.n}`,
      peak.role,
      String(peak.processes),
      String(peak.peakMiB),
    ]),
  );
  return table(["stack", "process", "processes", "peak RSS MiB"], rows);
}

async function main(): Promise<void> {
  const host = machine();
  const ns = sizes([10, 100, 500]);
  const largest = Math.max(...ns);
  process.stdout.write(`machine: ${describeMachine(host)}\nN: ${ns.join(", ")}; ${BLOB_PREFIXES} blob prefixes\n`);
  const emulator = await startEmulator({ admin: true });
  const runs: Run[] = [];
  try {
    for (const n of ns) {
      runs.push(...(await runPair(emulator, n, n === largest)));
    }
  } finally {
    await emulator.close();
  }
  const oursLargest = runs.find((r) => r.n === largest && r.variant === "ours")!;
  process.stdout.write(
    `\nWall time, ours next to the floor (no-op dynamic resources of the same shape):\n${timingTable(runs)}\n`,
  );
  process.stdout.write(
    `\nAPI requests per operation, ours at N=${largest} (mix ${JSON.stringify(oursLargest.mix)}):\n${requestsTable(oursLargest)}\n`,
  );
  process.stdout.write(`\nRequests by route, ours at N=${largest}:\n${routesTable(oursLargest)}\n`);
  process.stdout.write(`\nPeak RSS at N=${largest} (over the five operations):\n${memoryTable(runs)}\n`);
  const file = writeResults("engine", { at: new Date().toISOString(), machine: host, runs });
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
