import * as pulumi from "@pulumi/pulumi";
import type { DatabaseRestoreInputs } from "../provider/schemas/database-restore";
import { ProviderStub } from "./stub";
import { userError } from "./user-error";

const provider = new ProviderStub("databaseRestore");

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

export interface DatabaseRestoreArgs {
  /** The database whose data is overwritten. */
  databaseId: pulumi.Input<string>;
  /** Must be true: restoring overwrites newer data for good. Without it the preview fails and says what would be lost. */
  confirm: pulumi.Input<boolean>;
  /** A snapshot entry, e.g. the latest of a database from getSnapshots. Give it, or snapshotId and versionId. */
  snapshot?: pulumi.Input<RestorableSnapshot>;
  /** The database that owns the snapshot (an entry's `name`). */
  snapshotId?: pulumi.Input<string>;
  /** The snapshot's version (an entry's `versionId`, a UUID). */
  versionId?: pulumi.Input<string>;
}

/**
 * Restores a database snapshot, once: the `pulumi up` that creates the resource starts the
 * restore, later runs do nothing, and a change of the database, the snapshot or the version restores
 * again (pinning the ids of the entry already restored does not). The API allows one
 * restore per database per 60 seconds; the provider waits its turn. Removing the resource leaves
 * the data as it is.
 *
 * A `snapshot` that follows "the latest entry" of a listing changes when a newer snapshot
 * appears, and the next `pulumi up` then restores again: pin the version when that must not happen.
 */
export class DatabaseRestore extends pulumi.dynamic.Resource {
  declare readonly databaseId: pulumi.Output<string>;
  declare readonly snapshotId: pulumi.Output<string>;
  declare readonly versionId: pulumi.Output<string>;
  declare readonly snapshotModified: pulumi.Output<string | undefined>;
  declare readonly confirm: pulumi.Output<boolean>;
  /** ISO 8601 UTC time the restore was started. */
  declare readonly restoredAt: pulumi.Output<string>;

  constructor(name: string, args: DatabaseRestoreArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs: { [K in keyof DatabaseRestoreInputs]: pulumi.Input<unknown> } = {
      databaseId: args.databaseId,
      confirm: args.confirm,
      ...snapshotInputs(name, args),
    };
    super(provider, name, { restoredAt: undefined, ...inputs }, opts, "squarecloud", "DatabaseRestore");
  }
}

function snapshotInputs(name: string, args: DatabaseRestoreArgs) {
  if (args.snapshot === undefined) return { snapshotId: args.snapshotId, versionId: args.versionId, snapshotModified: undefined };
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
