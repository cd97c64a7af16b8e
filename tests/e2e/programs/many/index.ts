// Many resources at once, for the limits of the service: config `objects` blob objects (each a
// StringAsset of its own content) under `prefix`, a snapshot of each app of `snapshotApps`, the
// databases named in `databases`, a workspace when `workspace` is set, and the analytics of each
// app of `analyticsApps` in both ranges (data-source reads).
import * as pulumi from "@pulumi/pulumi";
import { AppSnapshot, BlobObject, Database, getAppAnalyticsOutput, Workspace } from "pulumi-squarecloud";

const config = new pulumi.Config();
const prefix = config.require("prefix");
const objectCount = config.requireNumber("objects");
const snapshotApps = config.getObject<string[]>("snapshotApps") ?? [];
const databaseNames = config.getObject<string[]>("databases") ?? [];
const analyticsApps = config.getObject<string[]>("analyticsApps") ?? [];
const workspaceName = config.get("workspace");

const objects = Array.from({ length: objectCount }, (_, i) => {
  const name = `${prefix}${String(i).padStart(3, "0")}`;
  return new BlobObject(name, {
    name,
    prefix,
    source: new pulumi.asset.StringAsset(`${name}\n`.padEnd(1024 + i, "x")),
  });
});
const snapshots = snapshotApps.map((appId, i) => new AppSnapshot(`${prefix}-snapshot-${i}`, { appId }));
const databases = databaseNames.map(
  (name) => new Database(name, { name, type: "redis", memory: 512, version: "7.4.5" }),
);
const workspace = workspaceName === undefined ? undefined : new Workspace(workspaceName, { name: workspaceName });

export const objectIds = objects.map((o) => o.id);
export const snapshotTimes = snapshots.map((s) => s.takenAt);
export const databaseIds = databases.map((d) => d.id);
export const workspaceId = workspace?.id;
export const visits = analyticsApps.flatMap((appId) =>
  (["daily", "weekly"] as const).map((range) => getAppAnalyticsOutput({ appId, range }).apply((a) => a.visits.length)),
);
