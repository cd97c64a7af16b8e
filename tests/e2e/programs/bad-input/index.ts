// Declares one resource (or one data-source read) per entry of config `cases` (logical name ->
// case), so one preview checks a whole table of bad inputs. A case's `unknown` lists fields whose
// values stay unknown at preview; its `computed` fields get their values from a workspace's id,
// unknown at preview and known at up, as a value computed by `up` is. A BlobObject's source is
// `file` (a FileAsset path), `text` (a StringAsset) or `remote` (a RemoteAsset URI).
import * as pulumi from "@pulumi/pulumi";
import { unknown } from "@pulumi/pulumi/output";
import * as sq from "pulumi-squarecloud";

interface Case {
  kind: string;
  args?: Record<string, unknown>;
  unknown?: string[];
  computed?: Record<string, unknown>;
}

const config = new pulumi.Config();
const cases = config.requireObject<Record<string, Case>>("cases");

let source: sq.Workspace | undefined;
const computedSource = () => (source ??= new sq.Workspace("computed", { name: "computed_source" }));

function argsOf(spec: Case): Record<string, any> {
  const args: Record<string, unknown> = { ...spec.args };
  for (const field of spec.unknown ?? []) args[field] = pulumi.output(unknown);
  for (const [field, value] of Object.entries(spec.computed ?? {}))
    args[field] = computedSource().id.apply(() => value);
  return args;
}

function sourceOf({ file, text, remote, ...rest }: Record<string, any>): Record<string, any> {
  if (file !== undefined) return { ...rest, source: new pulumi.asset.FileAsset(file) };
  if (text !== undefined) return { ...rest, source: new pulumi.asset.StringAsset(text) };
  if (remote !== undefined) return { ...rest, source: new pulumi.asset.RemoteAsset(remote) };
  return rest;
}

const declare: Record<string, (name: string, args: Record<string, any>) => unknown> = {
  Database: (name, args) => new sq.Database(name, args as sq.DatabaseArgs).id,
  Workspace: (name, args) => new sq.Workspace(name, args as sq.WorkspaceArgs).id,
  WorkspaceMember: (name, args) => new sq.WorkspaceMember(name, args as sq.WorkspaceMemberArgs).id,
  BlobObject: (name, args) => new sq.BlobObject(name, sourceOf(args) as sq.BlobObjectArgs).id,
  BlobFolder: (name, args) => new sq.BlobFolder(name, args as sq.BlobFolderArgs).urls,
  AppSnapshot: (name, args) => new sq.AppSnapshot(name, args as sq.AppSnapshotArgs).id,
  DatabaseRestore: (name, args) => new sq.DatabaseRestore(name, args as sq.DatabaseRestoreArgs).id,
  AppFileMove: (name, args) => new sq.AppFileMove(name, args as sq.AppFileMoveArgs).id,
  getApp: (_name, args) => sq.getAppOutput(args),
  getApps: (_name, args) => sq.getAppsOutput(args),
  getAppAnalytics: (_name, args) => sq.getAppAnalyticsOutput(args as sq.GetAppAnalyticsArgs),
  getAppDeployments: (_name, args) => sq.getAppDeploymentsOutput(args as sq.GetAppDeploymentsArgs),
  getDatabaseMetrics: (_name, args) => sq.getDatabaseMetricsOutput(args as sq.GetDatabaseMetricsArgs),
  getSnapshots: (_name, args) => sq.getSnapshotsOutput(args),
  getLatestDatabaseSnapshot: (_name, args) =>
    sq.getLatestDatabaseSnapshotOutput(args as sq.GetLatestDatabaseSnapshotArgs),
  getWorkspace: (_name, args) => sq.getWorkspaceOutput(args),
  getBlobObjects: (_name, args) => sq.getBlobObjectsOutput(args),
};

export const results = Object.fromEntries(
  Object.entries(cases).map(([name, spec]) => {
    const make = declare[spec.kind];
    if (!make) throw new Error(`case "${name}": unknown kind "${spec.kind}"`);
    return [name, make(name, argsOf(spec))];
  }),
);
