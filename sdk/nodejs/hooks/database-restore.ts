import * as pulumi from "@pulumi/pulumi";
import { userError } from "../../../provider/user-error";

/**
 * The parts of a snapshot entry (an item of getSnapshots with scope "databases") a restore uses.
 * An entry's `key` is a pre-signed credential: it is never passed on, so it stays out of state.
 */
export interface RestorableSnapshot {
  /** The database that owns the snapshot. */
  name: string;
  versionId?: string;
  /** ISO 8601 UTC; shown at preview as the point after which data is lost. */
  modified?: string;
}

/** What prepare reads of a DatabaseRestore's args. */
interface RestoreArgs {
  databaseId: unknown;
  confirm: unknown;
  snapshotId?: pulumi.Input<string>;
  versionId?: pulumi.Input<string>;
  snapshot?: pulumi.Input<RestorableSnapshot>;
}

/** A DatabaseRestore's inputs: a snapshot entry, when given, becomes the ids it names. */
export function prepare<A extends RestoreArgs>(name: string, args: A, _opts?: pulumi.CustomResourceOptions): object {
  return { databaseId: args.databaseId, confirm: args.confirm, ...snapshotInputs(name, args) };
}

function snapshotInputs(name: string, args: RestoreArgs) {
  if (args.snapshot === undefined)
    return { snapshotId: args.snapshotId, versionId: args.versionId, snapshotModified: undefined };
  if (args.snapshotId !== undefined || args.versionId !== undefined) {
    throw userError(`DatabaseRestore "${name}": give either snapshot or snapshotId and versionId, not both`);
  }
  // Only these three fields leave the entry: its `key` never becomes an input. An entry whose
  // key made it secret as a whole would make them secret too; they carry no credential.
  const entry = pulumi.output(args.snapshot);
  return {
    snapshotId: pulumi.unsecret(entry.apply((s) => s.name)),
    versionId: pulumi.unsecret(entry.apply((s) => s.versionId)),
    snapshotModified: pulumi.unsecret(entry.apply((s) => s.modified)),
  };
}
