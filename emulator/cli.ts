#!/usr/bin/env node
/**
 * `squarecloud-emulator`: starts both APIs, prints their URLs and the seeded accounts' keys, and
 * runs until SIGINT/SIGTERM. Flags win over environment variables, which win over the defaults.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "./index";
import { parseRequestRate, type RequestRateLimit } from "./models/request-rate";
import { isObjectIdForm, OBJECT_ID_FORMS, type ObjectIdForm } from "./models/rules";
import { STATE_FILE } from "./store/file-store";

const DEFAULT_PLATFORM_PORT = 4580;
const DEFAULT_BLOB_PORT = 4581;

const USAGE = `Usage: squarecloud-emulator [options]

  --host <host>            listen address (env SQUARECLOUD_EMULATOR_HOST, default 127.0.0.1)
  --platform-port <port>   platform API port (env SQUARECLOUD_EMULATOR_PLATFORM_PORT, default ${DEFAULT_PLATFORM_PORT}; 0 = any free port)
  --blob-port <port>       blob API port (env SQUARECLOUD_EMULATOR_BLOB_PORT, default ${DEFAULT_BLOB_PORT}; 0 = any free port)
  --data-dir <dir>         keep state in <dir>/${STATE_FILE} across restarts (env SQUARECLOUD_EMULATOR_DATA_DIR; default in memory)
  --admin                  serve the admin surface /__emulator (reset, clock, faults, request log); it takes
                           no key, so it is off unless asked for (env SQUARECLOUD_EMULATOR_ADMIN=1)
  --object-ids <form>      ids of expiring uploads: suffixed ends them in -ex<days>, plain leaves that
                           optional suffix out (env SQUARECLOUD_EMULATOR_OBJECT_IDS, default suffixed)
  --rate-limit <n>/<s>s    at most n requests per s seconds per account, then 429 RATE_LIMIT_EXCEEDED
                           with Retry-After (env SQUARECLOUD_EMULATOR_RATE_LIMIT, e.g. 50/1s; default none:
                           the live limit is not published)
  --help                   show this text
`;

function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) {
    throw new Error(`${flag} must be a port number from 0 to 65535, got "${value}"`);
  }
  return parsed;
}

/** Undefined leaves the default to startEmulator. */
function objectIdForm(value: string | undefined): ObjectIdForm | undefined {
  if (value === undefined || value === "") return undefined;
  if (!isObjectIdForm(value))
    throw new Error(`--object-ids must be one of ${OBJECT_ID_FORMS.join(", ")}, got "${value}"`);
  return value;
}

/** Undefined: no account-wide request rate. */
function requestRate(value: string | undefined): RequestRateLimit | undefined {
  if (value === undefined || value === "") return undefined;
  const limit = parseRequestRate(value);
  if (!limit) throw new Error(`--rate-limit takes <requests>/<seconds>s, e.g. 50/1s, got "${value}"`);
  return limit;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: "string" },
      "platform-port": { type: "string" },
      "blob-port": { type: "string" },
      "data-dir": { type: "string" },
      admin: { type: "boolean" },
      "object-ids": { type: "string" },
      "rate-limit": { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const env = process.env;
  const dataDir = values["data-dir"] ?? env.SQUARECLOUD_EMULATOR_DATA_DIR;
  const admin = values.admin ?? env.SQUARECLOUD_EMULATOR_ADMIN === "1";
  const emulator = await startEmulator({
    host: values.host ?? env.SQUARECLOUD_EMULATOR_HOST ?? "127.0.0.1",
    platformPort: port(
      values["platform-port"] ?? env.SQUARECLOUD_EMULATOR_PLATFORM_PORT,
      DEFAULT_PLATFORM_PORT,
      "--platform-port",
    ),
    blobPort: port(values["blob-port"] ?? env.SQUARECLOUD_EMULATOR_BLOB_PORT, DEFAULT_BLOB_PORT, "--blob-port"),
    ...(dataDir ? { dataDir } : {}),
    admin,
    objectIds: objectIdForm(values["object-ids"] ?? env.SQUARECLOUD_EMULATOR_OBJECT_IDS),
    requestRate: requestRate(values["rate-limit"] ?? env.SQUARECLOUD_EMULATOR_RATE_LIMIT),
  });

  const main = emulator.accounts[0]!;
  const lines = [
    "Square Cloud emulator running",
    `  platform API  ${emulator.platformUrl}`,
    `  blob API      ${emulator.blobUrl}`,
    `  state         ${dataDir ? join(dataDir, STATE_FILE) : "in memory"}`,
    admin
      ? `  admin         ${emulator.platformUrl}/__emulator/ (reset, clock, faults, requests, counters)`
      : "  admin         off (--admin serves /__emulator/: reset, clock, faults, requests, counters)",
    "",
    "Seeded accounts:",
    ...emulator.accounts.map((a) => `  ${a.name.padEnd(14)} ${a.plan.padEnd(11)} ${a.email.padEnd(18)} ${a.apiKey}`),
    "",
    "Point a client at it:",
    `  export SQUARECLOUD_PLATFORM_URL=${emulator.platformUrl} SQUARECLOUD_BLOB_URL=${emulator.blobUrl} SQUARECLOUD_API_KEY=${main.apiKey}`,
    "",
    "Ctrl+C to stop.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping\n`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(`squarecloud-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
