/**
 * Does the provider serialize work the engine runs in parallel? With the emulator adding 50 ms to
 * every request (as a distant service would), `up` of N=100 resources of ours is timed next to a
 * plain script doing the same API work with the provider's client, as many at a time as the
 * engine's default parallelism (4 per CPU, passed to the engine too), members after their
 * workspace, and next to the floor's `up` (the engine's own cost, no requests). The same script
 * run one request at a time is the control: what fully serialized work costs. The provider's
 * share, ours − floor, is printed against both scripts: near the parallel one, it serializes
 * nothing; near the serial one, it serializes everything.
 *
 *   npm run bench:latency                # N = 100
 *   BENCH_N=30 npm run bench:latency
 */
import { availableParallelism } from "node:os";
import { startEmulator, type RunningEmulator } from "../emulator";
import { benchClient, freshAccount, inviteCodes } from "./lib/emulator-account";
import { INVITEES, mixFor, names } from "./lib/mix";
import { expectChanges, mixStack, type Variant } from "./lib/mix-stack";
import { describeMachine, machine, sizes, table, writeResults } from "./lib/report";
import { timed } from "./lib/stack";

const LATENCY_MS = 50;
/** The CLI's default --parallel: 4 per CPU. */
const PARALLEL = 4 * availableParallelism();

async function withLatency(emulator: RunningEmulator): Promise<void> {
  await emulator.admin.injectFault({ match: {}, kind: "latency", probability: 1, latencyMs: LATENCY_MS });
}

interface Run {
  ms: number;
  requests: number;
  /** From the first request to the last answer of the timed part. */
  apiSpanMs: number;
  /** Requests × added latency / span: about 1 when requests go one at a time. */
  meanInFlight: number;
}

/** How the requests answered since `since` (epoch ms) spread over time, from the emulator's log. */
async function spread(emulator: RunningEmulator, since: number): Promise<Pick<Run, "apiSpanMs" | "meanInFlight">> {
  const answered = (await emulator.admin.requests()).map((r) => Date.parse(r.at)).filter((at) => at >= since);
  if (answered.length === 0) return { apiSpanMs: 0, meanInFlight: 0 };
  // The log stamps answers; each request began at least LATENCY_MS before its answer.
  const apiSpanMs = Math.max(...answered) - Math.min(...answered) + LATENCY_MS;
  return { apiSpanMs, meanInFlight: (answered.length * LATENCY_MS) / apiSpanMs };
}

async function engineUp(emulator: RunningEmulator, n: number, variant: Variant): Promise<Run> {
  await freshAccount(emulator);
  const { stack, dispose } = await mixStack(emulator, n, variant);
  try {
    await withLatency(emulator);
    const since = Date.now();
    const ms = await timed(async () => expectChanges(await stack.up({ parallel: PARALLEL }), "create", n + 1));
    const requests = Object.values(await emulator.admin.counters()).reduce((sum, c) => sum + c, 0);
    const run = { ms, requests, ...(await spread(emulator, since)) };
    await emulator.admin.clearFaults();
    await stack.destroy();
    return run;
  } finally {
    dispose();
  }
}

/** The same creations with the client, `width` at a time; a member waits for its workspace. */
async function plainScript(emulator: RunningEmulator, n: number, width: number): Promise<Run> {
  await freshAccount(emulator);
  const mix = mixFor(n);
  const codes = await inviteCodes(emulator, true);
  const client = benchClient(emulator);
  const workspaceIds: Promise<string>[] = [];
  const tasks: (() => Promise<unknown>)[] = [];
  for (let i = 0; i < mix.blobs; i++) {
    tasks.push(() =>
      client.uploadObject({ ...names.blob(i), content: Buffer.from(names.blobText(i)), mimeType: "text/plain" }),
    );
  }
  for (let i = 0; i < mix.databases; i++) {
    tasks.push(() =>
      client.createDatabase({ name: names.database(i, 1), type: "redis", memory: 512, version: "7.4.5" }),
    );
  }
  const created: ((id: string) => void)[] = [];
  for (let i = 0; i < mix.workspaces; i++) {
    workspaceIds.push(new Promise((resolve) => created.push(resolve)));
    tasks.push(async () => created[i]!((await client.createWorkspace(names.workspace(i))).id));
  }
  try {
    await withLatency(emulator);
    const since = Date.now();
    const ms = await timed(async () => {
      const members = Array.from({ length: mix.members }, (_, i) => async () => {
        const workspaceId = await workspaceIds[i % mix.workspaces]!;
        await client.addWorkspaceMember({ workspaceId, code: codes[INVITEES[i]!], group: names.memberGroup(1) });
        // The add answers only a status: who joined is read from the workspace.
        await client.getWorkspace(workspaceId);
      });
      // Members last in the queue, as the engine reaches them only once their workspace exists.
      await runPool([...tasks, ...members], width);
    });
    const requests = Object.values(await emulator.admin.counters()).reduce((sum, c) => sum + c, 0);
    return { ms, requests, ...(await spread(emulator, since)) };
  } finally {
    await emulator.admin.clearFaults();
    await client.close();
  }
}

async function runPool(tasks: (() => Promise<unknown>)[], width: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: width }, worker));
}

async function main(): Promise<void> {
  const host = machine();
  const n = sizes([100])[0]!;
  process.stdout.write(
    `machine: ${describeMachine(host)}\nN=${n}, ${LATENCY_MS} ms added to every request, parallelism ${PARALLEL}\n`,
  );
  const emulator = await startEmulator({ admin: true });
  let figures: Record<"ours" | "floor" | "plain" | "serial", Run>;
  try {
    const floor = await engineUp(emulator, n, "floor");
    process.stdout.write(`  floor up: ${(floor.ms / 1000).toFixed(1)} s\n`);
    const plain = await plainScript(emulator, n, PARALLEL);
    process.stdout.write(`  plain script, ${PARALLEL} at a time: ${(plain.ms / 1000).toFixed(1)} s\n`);
    const serial = await plainScript(emulator, n, 1);
    process.stdout.write(`  plain script, one at a time: ${(serial.ms / 1000).toFixed(1)} s\n`);
    const ours = await engineUp(emulator, n, "ours");
    process.stdout.write(`  ours up: ${(ours.ms / 1000).toFixed(1)} s\n`);
    figures = { ours, floor, plain, serial };
  } finally {
    await emulator.close();
  }
  const { ours, floor, plain, serial } = figures;
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const row = (run: Run) => [s(run.ms), String(run.requests), s(run.apiSpanMs), run.meanInFlight.toFixed(1)];
  const providerShare = ours.ms - floor.ms;
  process.stdout.write(
    `\n${table(
      ["run", "wall s", "requests", "API span s", "mean in flight"],
      [
        ["ours: pulumi up", ...row(ours)],
        ["floor: pulumi up of no-op resources", s(floor.ms), "0", "-", "-"],
        [`plain script, ${PARALLEL} at a time`, ...row(plain)],
        ["plain script, one at a time (control)", ...row(serial)],
      ],
    )}\n\nours - floor: ${s(providerShare)} s; ` +
      `(ours - floor) / plain ${PARALLEL} at a time: ${(providerShare / plain.ms).toFixed(2)}; ` +
      `(ours - floor) / plain one at a time: ${(providerShare / serial.ms).toFixed(2)}\n`,
  );
  const file = writeResults("latency", {
    at: new Date().toISOString(),
    machine: host,
    n,
    latencyMs: LATENCY_MS,
    parallel: PARALLEL,
    mix: mixFor(n),
    ours,
    floor,
    plain,
    serial,
  });
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
