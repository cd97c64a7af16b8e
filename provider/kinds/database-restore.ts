import { z } from "zod";
import { ApiId } from "../client/payloads/platform";
import { declareKind, field, type InputsOf, operationImport, type OutputsOf } from "./declaration";

export const databaseRestore = declareKind({
  name: "DatabaseRestore",
  kind: "databaseRestore",
  description: `Restores a database snapshot, once: the \`pulumi up\` that creates the resource starts the
restore, later runs do nothing, and a change of the database, the snapshot or the version restores
again (pinning the ids of the entry already restored does not). The API allows one
restore per database per 60 seconds; the provider waits its turn. Removing the resource leaves
the data as it is.

Ids that follow "the latest entry" of a listing change when a newer snapshot appears, and the
next \`pulumi up\` then restores again: pin the version when that must not happen.`,
  inputs: {
    databaseId: field(ApiId, "The database whose data is overwritten."),
    snapshotId: field(ApiId, "The database that owns the snapshot (a snapshot entry's `name`).", {
      sdkOptional: true,
    }),
    versionId: field(
      z.string({ error: "must be a string" }).uuid({ error: "must be a UUID (the versionId of a snapshot entry)" }),
      "The snapshot's version (a snapshot entry's `versionId`, a UUID).",
      { sdkOptional: true },
    ),
    snapshotModified: field(
      z.iso.datetime({ error: "must be an ISO 8601 UTC timestamp", offset: true }).optional(),
      "The snapshot entry's `modified` (ISO 8601), when known: what the preview names as the point after which data is lost.",
      { sdkDerived: true },
    ),
    confirm: field(
      z.literal(true),
      "Must be true: restoring overwrites newer data for good. Without it the preview fails and says what would be lost.",
      { sdkType: "boolean" },
    ),
  },
  outputs: {
    restoredAt: field(z.string(), "ISO 8601 UTC time the restore was started."),
  },
  sdkArgs: {
    snapshot: field(
      z.object({ name: z.string(), versionId: z.string().optional(), modified: z.string().optional() }).optional(),
      "Instead of snapshotId and versionId, a snapshot entry, e.g. the latest of a database from getSnapshots: its ids become snapshotId and versionId, its date snapshotModified (its key is left out).",
    ),
  },
  replaceOn: ["databaseId", "snapshotId", "versionId"],
  apis: ["platform"],
  import: operationImport("a restore run once", "a DatabaseRestore to restore a snapshot"),
});

export type DatabaseRestoreInputs = InputsOf<typeof databaseRestore>;
export type DatabaseRestoreOutputs = OutputsOf<typeof databaseRestore>;
