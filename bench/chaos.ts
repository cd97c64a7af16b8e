/**
 * The CI fault test (tests/e2e/reliability/faults.test.ts) runs one seed per rate; this runs many,
 * to see how often the provider converges under faults and at what cost. Each seed is one fault
 * run of the reliability program (up, a change, refresh, destroy) with the same fault mix and the
 * same convergence checks as CI. Prints per rate how many runs converged on the first, second or
 * a later `up`, which runs needed more than two and why, what was left wrong, and the requests,
 * faults and retries it took; a run outside the contract is listed with the command that replays
 * it. Not part of CI.
 *
 *   npm run chaos -- --seeds 20                  # 20 seeds at each of 5%, 20% and 40%
 *   npm run chaos -- --seeds 5 --rates 0.4 --seed-base 7000
 */
import { startEmulator } from "../emulator";
import { accountClient } from "../tests/e2e/harness/emulator-env";
import { faultProgram, faultRun, replayCommand, type FaultRunResult } from "../tests/e2e/reliability/fault-run";
import { summarizeByRate } from "../tests/e2e/reliability/fault-summary";
import { SecretScanner } from "../tests/e2e/reliability/secret-scan";
import { Transcript } from "../tests/e2e/reliability/transcript";
import { integerOption, option } from "./lib/options";
import { describeMachine, machine, table, writeResults } from "./lib/report";

function rates(): number[] {
  const values = option("rates", "0.05,0.2,0.4").split(",").map(Number);
  if (!values.every((rate) => rate > 0 && rate < 1))
    throw new Error("--rates takes fractions above 0 and below 1, e.g. 0.05,0.2,0.4");
  return values;
}

/** Seeds apart from CI's (501, 2001, 4001 and the full set's next two) unless --seed-base says otherwise. */
const DEFAULT_SEED_BASE = 10_000;

function summaryTable(results: FaultRunResult[]): string {
  const header = [
    "rate",
    "runs",
    "1st up",
    "2nd up",
    "3rd+ up",
    "outside contract",
    "duplicates",
    "orphans",
    "passwords lost unreported",
    "requests",
    "faults",
    "retries",
  ];
  const rows = summarizeByRate(results).map((f) =>
    [
      `${f.rate * 100}%`,
      f.runs,
      ...f.convergedOnUp,
      f.notConverged,
      f.duplicates,
      f.orphans,
      f.passwordsLostUnreported,
      f.requests,
      f.faults,
      f.retries,
    ].map(String),
  );
  return table(header, rows);
}

/** Per rate: how many runs ran a command more than twice, and whose refused creates made them. */
function extraRunsByRate(results: FaultRunResult[]): string {
  return summarizeByRate(results)
    .map((f) => {
      const causes = Object.entries(f.extraRunCauses).map(([resource, count]) => `${resource} x${count}`);
      const why = causes.length > 0 ? `; refused unknown-outcome creates: ${causes.join(", ")}` : "";
      return `${f.rate * 100}%: ${f.extraRuns} of ${f.runs} runs needed more than two runs of a command${why}`;
    })
    .join("\n");
}

/** "up #3 after Database documents refused", for each run of a command beyond its second. */
function describeExtraRuns(result: FaultRunResult): string {
  return result.extraRuns
    .map((extra) => `${extra.command} #${extra.run} after ${extra.refused.join(", ")} refused`)
    .join("; ");
}

async function main(): Promise<void> {
  const seeds = integerOption("seeds", 1, 1);
  const seedBase = integerOption("seed-base", DEFAULT_SEED_BASE, 0);
  const rateList = rates();
  const host = machine();
  const plan = rateList.flatMap((rate) => Array.from({ length: seeds }, (_, i) => ({ rate, seed: seedBase + i })));
  process.stdout.write(
    `machine: ${describeMachine(host)}\n${plan.length} fault runs: seeds ${seedBase}-${seedBase + seeds - 1} at ${rateList.map((r) => `${r * 100}%`).join(", ")}\n`,
  );
  const emulator = await startEmulator({ admin: true });
  const api = accountClient(emulator);
  const program = await faultProgram(emulator);
  const results: FaultRunResult[] = [];
  try {
    for (const { rate, seed } of plan) {
      const started = Date.now();
      // A fresh transcript each run: it keeps every command's output, megabytes over many runs.
      const context = {
        emulator,
        api,
        program,
        transcript: new Transcript(),
        scanner: new SecretScanner(),
        verbose: false,
      };
      const result = await faultRun(context, rate, seed);
      results.push(result);
      const outcome = result.failure === undefined ? `converged on up ${result.ups}` : "OUTSIDE THE CONTRACT";
      const extra = result.extraRuns.length > 0 ? `, ${describeExtraRuns(result)}` : "";
      process.stdout.write(
        `  ${rate * 100}% seed ${seed}: ${outcome}${extra} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
      );
    }
  } finally {
    await program.dispose().catch(() => undefined);
    await api.close();
    await emulator.close();
  }
  process.stdout.write(`\n${summaryTable(results)}\n\n${extraRunsByRate(results)}\n`);
  const failed = results.filter((r) => r.failure !== undefined);
  for (const r of failed)
    process.stdout.write(`\n${r.rate * 100}% seed ${r.seed}: ${r.failure}\nreplay: ${replayCommand(r.rate, r.seed)}\n`);
  const file = writeResults("chaos", {
    at: new Date().toISOString(),
    machine: host,
    seeds,
    seedBase,
    summary: summarizeByRate(results),
    runs: results,
  });
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`chaos failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
