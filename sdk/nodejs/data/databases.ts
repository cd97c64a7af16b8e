import * as pulumi from "@pulumi/pulumi";
import type * as platform from "../../../provider/client/payloads/platform";
import * as declared from "../../../provider/functions/databases";
import { runFunction } from "../../../provider/functions/declaration";
import { outputForm, promiseForm } from "./forms";
import type { DataSourceOptions } from "./options";
import { sessionFor } from "./session";

// ---- getDatabaseMetrics

export interface GetDatabaseMetricsArgs {
  databaseId: string;
}

export interface GetDatabaseMetricsResult {
  databaseId: string;
  /** One point per 5 minutes, most recent first. */
  points: MetricPoint[];
}

/** The use of a database at one point in time. */
export interface MetricPoint {
  /** ISO 8601. */
  date: string;
  cpu: number;
  /** MB. */
  ram: number;
  /** Cumulative network traffic: two counters. */
  net: [number, number];
}

export const getDatabaseMetrics = promiseForm(async function getDatabaseMetrics(
  args: GetDatabaseMetricsArgs,
  opts?: DataSourceOptions,
): Promise<GetDatabaseMetricsResult> {
  return runFunction(declared.getDatabaseMetrics, args, () => sessionFor(opts));
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
export interface SnapshotEntry {
  name: string;
  /** Bytes. */
  size: number;
  modified: string;
  key: string;
  versionId?: string;
}

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
  return runFunction(declared.getSnapshots, args, () => sessionFor(opts));
});

export const getSnapshotsOutput = outputForm(
  getSnapshots,
  (result): GetSnapshotsResult<SnapshotEntryOutput> => ({
    ...result,
    entries: result.entries.map(secretKey),
  }),
);

// ---- the latest snapshot of one database

/** The most recent entry that belongs to `owner` (a database or application id), if any. */
export const latestSnapshotOf = declared.latestSnapshotOf;

export interface GetLatestDatabaseSnapshotArgs {
  databaseId: string;
}

/** The database's most recent snapshot, ready for a restore; fails when it has none. */
export const getLatestDatabaseSnapshot = promiseForm(async function getLatestDatabaseSnapshot(
  args: GetLatestDatabaseSnapshotArgs,
  opts?: DataSourceOptions,
): Promise<SnapshotEntry> {
  return runFunction(declared.getLatestDatabaseSnapshot, args, () => sessionFor(opts));
});

export const getLatestDatabaseSnapshotOutput = outputForm(getLatestDatabaseSnapshot, secretKey);

function secretKey(entry: SnapshotEntry): SnapshotEntryOutput {
  return { ...entry, key: pulumi.secret(entry.key) };
}
