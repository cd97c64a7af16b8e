import { parseArgs } from "node:util";
import { ApiError, createClient, type SquareCloudClient } from "../../provider/client";
import { resolveConfig } from "../../provider/config";
import { runStartOf, TEST_PREFIX } from "./run-prefix";

/** Something a test run made and did not delete. */
export interface Leak {
  kind: "database" | "workspace" | "blob object";
  id: string;
  /** The name the prefix is matched on: a blob object's is its id after "<account id>/". */
  name: string;
  /** When the run that made it started (epoch ms), read from its name. */
  runStartedAt: number;
}

export interface SweepOptions {
  /** Only names starting with this; it must start with TEST_PREFIX. Default TEST_PREFIX. */
  prefix?: string;
  /** Only what runs started at least this long ago made. */
  olderThanMs: number;
  now?: number;
}

/**
 * What test runs leaked on the client's account: its databases, the workspaces it owns and its
 * blob objects whose names start with the prefix (TEST_PREFIX or a run's prefix) and carry a run's
 * start, at least `olderThanMs` ago. A name without TEST_PREFIX is never listed.
 */
export async function findLeaks(client: SquareCloudClient, options: SweepOptions): Promise<Leak[]> {
  const prefix = options.prefix ?? TEST_PREFIX;
  if (!prefix.startsWith(TEST_PREFIX))
    throw new Error(`the sweeper's prefix must start with ${TEST_PREFIX}, got "${prefix}"`);
  const now = options.now ?? Date.now();
  const me = await client.me();
  const [databases, workspaces, objects] = await Promise.all([
    client.listDatabases(),
    client.listWorkspaces(),
    client.listAllObjects(prefix),
  ]);
  const candidates: Omit<Leak, "runStartedAt">[] = [
    ...databases.map((db) => ({ kind: "database" as const, id: db.id, name: db.name })),
    ...workspaces
      .filter((workspace) => workspace.owner === me.user.id)
      .map((workspace) => ({ kind: "workspace" as const, id: workspace.id, name: workspace.name })),
    ...objects.map((object) => ({
      kind: "blob object" as const,
      id: object.id,
      name: object.id.slice(object.id.indexOf("/") + 1),
    })),
  ];
  const leaks: Leak[] = [];
  for (const candidate of candidates) {
    const runStartedAt = candidate.name.startsWith(prefix) ? runStartOf(candidate.name) : undefined;
    if (runStartedAt !== undefined && now - runStartedAt >= options.olderThanMs)
      leaks.push({ ...candidate, runStartedAt });
  }
  return leaks;
}

/**
 * Moves the file a run's AppFileMove renamed back to its name, when a failure left it renamed.
 * True when it did; false when the renamed file is not there (FILE_NOT_FOUND: nothing was left).
 */
export async function moveFileBack(
  client: SquareCloudClient,
  appId: string,
  move: { path: string; to: string },
): Promise<boolean> {
  try {
    await client.moveAppFile(appId, { path: move.to, to: move.path });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "FILE_NOT_FOUND") return false;
    throw error;
  }
}

/** Deletes each leak; one that fails is reported, the others are still deleted. */
export async function deleteLeaks(
  client: SquareCloudClient,
  leaks: Leak[],
): Promise<{ deleted: Leak[]; failed: { leak: Leak; error: string }[] }> {
  const deleted: Leak[] = [];
  const failed: { leak: Leak; error: string }[] = [];
  for (const leak of leaks) {
    try {
      if (leak.kind === "database") await client.deleteDatabase(leak.id);
      else if (leak.kind === "workspace") await client.deleteWorkspace(leak.id);
      else await client.deleteObject(leak.id);
      deleted.push(leak);
    } catch (error) {
      failed.push({ leak, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { deleted, failed };
}

export function describeLeak(leak: Leak, now = Date.now()): string {
  const minutes = Math.round((now - leak.runStartedAt) / 60_000);
  return `${leak.kind.padEnd(11)} ${leak.name}  (${leak.id}; run started ${minutes} min ago)`;
}

/** "90s", "30m", "6h", "2d" or plain milliseconds. */
export function parseAge(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`--older-than must be a number with s, m, h or d (e.g. 6h), got "${text}"`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? "ms"] as number;
  return Number(match[1]) * unit;
}

const USAGE = `Usage: npm run sweep -- [--older-than <age>] [--prefix <prefix>] [--yes]

Lists the databases, workspaces and blob objects of the account of SQUARECLOUD_API_KEY (at
SQUARECLOUD_PLATFORM_URL and SQUARECLOUD_BLOB_URL, as the provider reads them) that test runs
leaked: names starting with ${TEST_PREFIX} and the start of a run at least <age> ago. Deletes them
only with --yes.

  --older-than <age>   e.g. 90m, 6h, 2d (default 2h: a run still going is left alone)
  --prefix <prefix>    a narrower prefix, starting with ${TEST_PREFIX} (one run's)
  --yes                delete what is listed
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      "older-than": { type: "string", default: "2h" },
      prefix: { type: "string" },
      yes: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { apiKey, platformUrl, blobUrl } = resolveConfig({});
  const client = createClient({ apiKey, platformUrl, blobUrl });
  try {
    const now = Date.now();
    const leaks = await findLeaks(client, {
      prefix: values.prefix,
      olderThanMs: parseAge(values["older-than"] as string),
      now,
    });
    process.stdout.write(`sweep: ${leaks.length} leaked at ${platformUrl} and ${blobUrl}\n`);
    for (const leak of leaks) process.stdout.write(`  ${describeLeak(leak, now)}\n`);
    if (!values.yes) {
      if (leaks.length > 0) process.stdout.write("sweep: nothing deleted (a dry run): add --yes to delete them\n");
      return 0;
    }
    const { deleted, failed } = await deleteLeaks(client, leaks);
    process.stdout.write(`sweep: deleted ${deleted.length}\n`);
    for (const { leak, error } of failed) process.stdout.write(`  not deleted: ${describeLeak(leak, now)}: ${error}\n`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    await client.close();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`sweep: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
