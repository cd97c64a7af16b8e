/**
 * Emulator benchmark: the emulator runs in this process, load comes from a forked child running
 * autocannon, over loopback. Three scenarios: GET /v2/users/me, a blob list of 1,000 objects and
 * a 1 MiB upload. Each is bounded by a request count and a wall-clock limit, so the run always
 * ends by itself. Prints requests/s and p50/p99 latency side by side.
 *
 *   npm run bench:emulator
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { startEmulator, SEED_ACCOUNTS, type RunningEmulator } from "../emulator";
import { table } from "./lib/report";

interface Scenario {
  name: string;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** base64, so the scenario crosses the IPC channel as plain JSON. */
  bodyBase64?: string;
  connections: number;
  amount: number;
}

interface Outcome {
  name: string;
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** The part of autocannon's programmatic API used here. */
type Autocannon = (options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  connections: number;
  amount: number;
  timeout: number;
}) => Promise<{
  requests: { total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  duration: number;
}>;

const SCENARIO_TIME_LIMIT_MS = 60_000;
const LIST_OBJECTS = 1000;
const UPLOAD_BYTES = 1024 * 1024;
const BOUNDARY = "squarecloudemulatorbench";

function multipart(file: Buffer, type: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Fills bob's blob account with exactly LIST_OBJECTS small objects (four uploads in flight, the limit). */
async function seedObjects(emulator: RunningEmulator): Promise<void> {
  const body = multipart(Buffer.alloc(1024, 0x61), "text/plain");
  const headers = {
    Authorization: SEED_ACCOUNTS.bob.apiKey,
    "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
  };
  let next = 0;
  const worker = async () => {
    while (next < LIST_OBJECTS) {
      next += 1;
      const response = await fetch(`${emulator.blobUrl}/v1/objects?name=bench&prefix=bench`, {
        method: "POST",
        headers,
        body,
      });
      if (response.status !== 200) throw new Error(`seeding upload failed with ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

function scenarios(emulator: RunningEmulator): Scenario[] {
  return [
    {
      name: "GET /v2/users/me",
      url: `${emulator.platformUrl}/v2/users/me`,
      method: "GET",
      headers: { Authorization: SEED_ACCOUNTS.alice.apiKey },
      connections: 10,
      amount: 20_000,
    },
    {
      name: `GET /v1/objects (${LIST_OBJECTS} objects)`,
      url: `${emulator.blobUrl}/v1/objects`,
      method: "GET",
      headers: { Authorization: SEED_ACCOUNTS.bob.apiKey },
      connections: 10,
      amount: 3_000,
    },
    {
      name: "POST /v1/objects (1 MiB upload)",
      url: `${emulator.blobUrl}/v1/objects?name=bench_upload`,
      method: "POST",
      headers: {
        Authorization: SEED_ACCOUNTS.dave.apiKey,
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      },
      bodyBase64: multipart(randomBytes(UPLOAD_BYTES), "application/pdf").toString("base64"),
      // The API allows four uploads in flight per account; more connections would measure 429s.
      connections: 4,
      amount: 400,
    },
  ];
}

/** Runs one scenario in a child process and kills it if it overruns. */
function runInChild(scenario: Scenario): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ["--load-generator"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${scenario.name}: no result within ${SCENARIO_TIME_LIMIT_MS} ms`));
    }, SCENARIO_TIME_LIMIT_MS);
    child.once("message", (outcome: Outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${scenario.name}: load generator exited with ${code}`));
    });
    child.send(scenario);
  });
}

/** Child side: receive a scenario, run autocannon, report, exit. */
function loadGenerator(): void {
  process.once("message", async (scenario: Scenario) => {
    const autocannon = require("autocannon") as Autocannon;
    const result = await autocannon({
      url: scenario.url,
      method: scenario.method,
      headers: scenario.headers,
      ...(scenario.bodyBase64 ? { body: Buffer.from(scenario.bodyBase64, "base64") } : {}),
      connections: scenario.connections,
      amount: scenario.amount,
      timeout: 30,
    });
    const outcome: Outcome = {
      name: scenario.name,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
    };
    process.send?.(outcome, () => process.exit(0));
  });
}

function outcomeTable(outcomes: Outcome[]): string {
  return table(
    ["scenario", "requests", "non-2xx", "errors", "req/s", "p50 ms", "p99 ms"],
    outcomes.map((o) => [
      o.name,
      String(o.requests),
      String(o.non2xx),
      String(o.errors),
      (o.requests / o.seconds).toFixed(0),
      o.p50.toFixed(1),
      o.p99.toFixed(1),
    ]),
  );
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ admin: true });
  try {
    process.stdout.write(`emulator: platform ${emulator.platformUrl}, blob ${emulator.blobUrl}\n`);
    await seedObjects(emulator);
    process.stdout.write(`seeded ${LIST_OBJECTS} objects; running scenarios (node ${process.version})\n\n`);
    const outcomes: Outcome[] = [];
    for (const scenario of scenarios(emulator)) outcomes.push(await runInChild(scenario));
    process.stdout.write(`${outcomeTable(outcomes)}\n\n`);
    process.stdout.write(
      "The object list is served from the 30 s list cache after the first request, as on the real service.\n",
    );
  } finally {
    await emulator.close();
  }
}

if (process.argv.includes("--load-generator")) {
  loadGenerator();
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
