import { z } from "zod";
import { field } from "../kinds/declaration";
import { SnapshotScope } from "../client/payloads/platform";
import { ARGUMENTS } from "./arguments";
import { newestFirst } from "./dates";
import { declareFunction } from "./declaration";

// ---- getDatabaseMetrics

const metricPoint = field(
  z.object({
    date: field(z.string(), "ISO 8601 time of the point."),
    cpu: field(z.number(), "CPU use of the database."),
    ram: field(z.number(), "RAM use, in MB."),
    net: field(z.tuple([z.number(), z.number()]), "Cumulative network traffic: two counters."),
  }),
  "The use of a database at one point in time.",
  { schemaType: "MetricPoint" },
);

export const getDatabaseMetrics = declareFunction({
  name: "getDatabaseMetrics",
  description: "A database's recent CPU, RAM and network use.",
  args: { databaseId: field(ARGUMENTS.id, "The database's id.") },
  result: {
    databaseId: field(z.string(), "The database's id."),
    points: field(z.array(metricPoint), "One point per 5 minutes, most recent first."),
  },
  read: async ({ databaseId }, session) =>
    session().read("getDatabaseMetrics", { databaseId }, async (client) => ({
      databaseId,
      points: newestFirst(await client.databaseMetrics(databaseId), (point) => point.date),
    })),
});

// ---- getSnapshots

const snapshotFields = {
  name: field(z.string(), "The id of the application or database the snapshot belongs to."),
  size: field(z.number(), "The snapshot's size in bytes."),
  modified: field(z.string(), "ISO 8601 time the snapshot was taken."),
  key: field(z.string(), "A pre-signed download credential.", { secret: true }),
  versionId: field(
    z.string().optional(),
    "The snapshot's version: what a database restore needs (database snapshots).",
  ),
};

export const getSnapshots = declareFunction({
  name: "getSnapshots",
  description: "Every snapshot of the account's applications or databases.",
  args: { scope: field(ARGUMENTS.scope, "`applications` (default) or `databases`.") },
  result: {
    scope: field(SnapshotScope, "The scope read: `applications` or `databases`."),
    entries: field(
      z.array(
        field(z.object(snapshotFields), "A snapshot of an application or a database.", { schemaType: "SnapshotEntry" }),
      ),
      "Most recent first.",
    ),
  },
  read: async ({ scope = "applications" }, session) =>
    session().read("getSnapshots", { scope }, async (client) => ({
      scope,
      entries: newestFirst(await client.listSnapshots(scope), (entry) => entry.modified),
    })),
});

// ---- the latest snapshot of one database

/** The most recent entry that belongs to `owner` (a database or application id), if any. */
export function latestSnapshotOf<E extends { name: string; modified: string }>(
  entries: readonly E[],
  owner: string,
): E | undefined {
  return newestFirst(
    entries.filter((entry) => entry.name === owner),
    (entry) => entry.modified,
  )[0];
}

export const getLatestDatabaseSnapshot = declareFunction({
  name: "getLatestDatabaseSnapshot",
  description: "The database's most recent snapshot, ready for a restore; fails when it has none.",
  args: { databaseId: field(ARGUMENTS.id, "The database's id.") },
  result: snapshotFields,
  read: async ({ databaseId }, session) => {
    const { entries } = await getSnapshots.read({ scope: "databases" }, session);
    const latest = latestSnapshotOf(entries, databaseId);
    if (!latest) throw new Error(`database "${databaseId}" has no snapshots`);
    return latest;
  },
});
