import { emulatorSuite } from "../harness/emulator-env";
import type { ProgramStack } from "../harness/stack";
import { faultProgram, faultRun, replayCommand, type FaultRunContext, type FaultRunResult } from "./fault-run";
import { summarizeByRate } from "./fault-summary";
import { SecretScanner, splitEngineTraces } from "./secret-scan";
import { Transcript } from "./transcript";

// The reliability program through up, a change, refresh and destroy under seeded faults at 5%,
// 20% and 40% of requests (fault-run.ts); each run must converge. CI runs one seeded run per
// rate; RELIABILITY_FULL=1 runs the full set docs/reliability.md's figures come from; FAULT_RATE and
// FAULT_SEED run exactly one seed at one rate again (a failure prints that command). After the
// runs, nothing secret may appear in plaintext in state files, command output (most verbose
// logging) or errors. (The emulator's request log holds no bodies, queries or headers, so it is
// not scanned.)

const FULL = process.env.RELIABILITY_FULL === "1";
/** Only stops a hung run: at 40 % a run took 205 s on a quiet machine and over 400 s at load 30. */
const RUN_TIMEOUT_MS = 900_000;
/**
 * Per rate, CI's seed first, then the two more of the full set. At 40%, seeds 4001 and 4002 lose
 * the answer of an application link: they converge because the provider settles it by reading.
 */
const SEEDS: [number, number[]][] = [
  [0.05, [501, 502, 503]],
  [0.2, [2001, 2002, 2003]],
  [0.4, [4001, 4002, 4003]],
];

const suite = emulatorSuite();
const transcript = new Transcript();
const scanner = new SecretScanner();
const results: FaultRunResult[] = [];
let program: ProgramStack;

beforeAll(async () => {
  program = suite.keep(await faultProgram(suite.emulator));
  scanner.add("API key", suite.emulator.accounts[0]!.apiKey);
});

afterAll(() => {
  const header = [
    "rate",
    "runs",
    "requests",
    "injected faults",
    "retries",
    "failed runs",
    "second up",
    "third+ up",
    "duplicates",
    "orphans",
    "passwords lost",
  ];
  const lines = summarizeByRate(results).map((f) =>
    [
      `${f.rate * 100}%`,
      f.runs,
      f.requests,
      f.faults,
      f.retries,
      f.commandFailed,
      f.convergedOnUp[1],
      f.convergedOnUp[2],
      f.duplicates,
      f.orphans,
      f.passwordsLost,
    ].join(" | "),
  );
  console.log(
    `fault runs (${FULL ? "full set" : "CI subset"}):\n| ${header.join(" | ")} |\n${lines.map((line) => `| ${line} |`).join("\n")}`,
  );
});

for (const { rate, seed } of plannedRuns()) {
  test(
    `converges at ${rate * 100}% faults (seed ${seed})`,
    async () => {
      const context: FaultRunContext = {
        emulator: suite.emulator,
        api: suite.api,
        program,
        transcript,
        scanner,
        verbose: true,
      };
      const result = await faultRun(context, rate, seed);
      results.push(result);
      if (result.failure !== undefined) throw new Error(`${result.failure}\nreplay: ${replayCommand(rate, seed)}`);
    },
    RUN_TIMEOUT_MS,
  );
}

test("no secret in plaintext in state, backups, command output or errors", async () => {
  // The scanner can hit: a password inside JSON, a certificate line inside a log line, and a
  // secret in a provider's warning that follows Pulumi's own traces.
  const password = 'p@ss"word-123';
  const certLine = "QUJD".repeat(16);
  const probe = new SecretScanner()
    .add("probe", password)
    .add("cert", `-----BEGIN CERTIFICATE-----\n${certLine}\n-----END CERTIFICATE-----`);
  expect(probe.scan({ json: JSON.stringify({ password }), log: `cert=${certLine}` })).toHaveLength(2);
  const output = ` +  pulumi:pulumi:Stack p creating (1s) debug: RegisterResource RPC finished: x\n    ,value,,,${certLine}\n    warning: ${password}`;
  expect(probe.scan({ output: splitEngineTraces(output).rest })).toEqual([{ secret: "probe", source: "output" }]);

  // Passwords, certificates, connection URLs, invite codes, pre-signed keys and the API key.
  expect(scanner.size).toBeGreaterThan(10);
  const outputs = Object.entries(transcript.texts()).map(([label, text]) => [label, splitEngineTraces(text)] as const);
  const texts = {
    ...Object.fromEntries(outputs.map(([label, split]) => [label, split.rest])),
    "backend files": program.backendText(),
  };
  const engineTraceHits = scanner.scan(Object.fromEntries(outputs.map(([label, split]) => [label, split.traces])));
  console.log(
    `secrets scan: ${Object.keys(texts).length} texts clean; Pulumi's own -v=9/--debug traces held secrets in ${engineTraceHits.length} (secret, command) pairs`,
  );
  expect(scanner.scan(texts)).toEqual([]);
});

/**
 * FAULT_RATE and FAULT_SEED together: that one run. Otherwise one seed per rate (CI), three with
 * RELIABILITY_FULL=1.
 */
function plannedRuns(): { rate: number; seed: number }[] {
  const { FAULT_RATE, FAULT_SEED } = process.env;
  if (FAULT_RATE !== undefined || FAULT_SEED !== undefined) {
    const rate = Number(FAULT_RATE);
    const seed = Number(FAULT_SEED);
    if (!(rate > 0 && rate < 1) || !Number.isSafeInteger(seed)) {
      throw new Error(
        `FAULT_RATE (above 0, below 1) and FAULT_SEED (an integer) go together; got ${FAULT_RATE} and ${FAULT_SEED}`,
      );
    }
    return [{ rate, seed }];
  }
  return SEEDS.flatMap(([rate, seeds]) => seeds.slice(0, FULL ? 3 : 1).map((seed) => ({ rate, seed })));
}
