import * as pulumi from "@pulumi/pulumi";
import type * as platform from "../../provider/client/payloads/platform";
import { ARGUMENTS, checkArguments } from "./arguments";
import { newestFirst } from "./dates";
import { outputForm, promiseForm } from "./forms";
import type { DataSourceOptions } from "./options";
import { sessionFor } from "./session";

// ---- getDatabaseMetrics

export interface GetDatabaseMetricsArgs {
  databaseId: string;
}

export interface GetDatabaseMetricsResult {
  databaseId: string;
  /** One point per 5 minutes, most recent first. `net` is cumulative traffic, two counters. */
  points: platform.MetricPoint[];
}

export const getDatabaseMetrics = promiseForm(async function getDatabaseMetrics(
  args: GetDatabaseMetricsArgs,
  opts?: DataSourceOptions,
): Promise<GetDatabaseMetricsResult> {
  checkArguments("getDatabaseMetrics", { databaseId: ARGUMENTS.id }, args);
  const { databaseId } = args;
  return sessionFor(opts).read("getDatabaseMetrics", { databaseId }, async (client) => ({
    databaseId,
    points: newestFirst(await client.databaseMetrics(databaseId), (point) => point.date),
  }));
});

export const getDatabaseMetricsOutput = outputForm(getDatabaseMetrics);

// ---- getSnapshots

export interface GetSnapshotsArgs {
  /** "applications" (default) or "databases". */
  scope?: platform.SnapshotScope;
}

/**
 * A snapshot: `name` is the id of the application or database it belongs to, `modified` an ISO
 * 8601 date, `versionId` (database snapshots) what a restore needs. `key` is a pre-signed download
 * credential: sensitive in the Promise form, a secret Output in the Output form.
 */
export type SnapshotEntry = platform.SnapshotEntry;

/** The Output form's entry: the same fields, `key` a secret. */
export type SnapshotEntryOutput = Omit<SnapshotEntry, "key"> & { key: pulumi.Output<string> };

export interface GetSnapshotsResult<E = SnapshotEntry> {
  scope: platform.SnapshotScope;
  /** Most recent first. */
  entries: E[];
}

/** Every snapshot of the account's applications or databases. */
export const getSnapshots = promiseForm(async function getSnapshots(
  args: GetSnapshotsArgs = {},
  opts?: DataSourceOptions,
): Promise<GetSnapshotsResult> {
  checkArguments("getSnapshots", { scope: ARGUMENTS.scope }, args);
  const { scope = "applications" } = args;
  return sessionFor(opts).read("getSnapshots", { scope }, async (client) => ({
    scope,
    entries: newestFirst(await client.listSnapshots(scope), (entry) => entry.modified),
  }));
});

export const getSnapshotsOutput = outputForm(getSnapshots, (result): GetSnapshotsResult<SnapshotEntryOutput> => ({
  ...result,
  entries: result.entries.map(secretKey),
}));

// ---- the latest snapshot of one database

/** The most recent entry that belongs to `owner` (a database or application id), if any. */
export function latestSnapshotOf<E extends { name: string; modified: string }>(entries: readonly E[], owner: string): E | undefined {
  return newestFirst(
    entries.filter((entry) => entry.name === owner),
    (entry) => entry.modified,
  )[0];
}

export interface GetLatestDatabaseSnapshotArgs {
  databaseId: string;
}

/** The database's most recent snapshot, ready for a restore; fails when it has none. */
export const getLatestDatabaseSnapshot = promiseForm(async function getLatestDatabaseSnapshot(
  args: GetLatestDatabaseSnapshotArgs,
  opts?: DataSourceOptions,
): Promise<SnapshotEntry> {
  checkArguments("getLatestDatabaseSnapshot", { databaseId: ARGUMENTS.id }, args);
  const { entries } = await getSnapshots({ scope: "databases" }, opts);
  const latest = latestSnapshotOf(entries, args.databaseId);
  if (!latest) throw new Error(`database "${args.databaseId}" has no snapshots`);
  return latest;
});

export const getLatestDatabaseSnapshotOutput = outputForm(getLatestDatabaseSnapshot, secretKey);

function secretKey(entry: SnapshotEntry): SnapshotEntryOutput {
  return { ...entry, key: pulumi.secret(entry.key) };
}
