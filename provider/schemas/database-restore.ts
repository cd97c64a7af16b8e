import { z } from "zod";
import { ApiId } from "../client/payloads/platform";

/** The DatabaseRestore operation's inputs: the single source of its validation rules and its types. */

export const databaseRestoreInputFields = {
  /** The database whose data is overwritten. */
  databaseId: ApiId,
  /** The database that owns the snapshot (a snapshot entry's `name`). */
  snapshotId: ApiId,
  /** The snapshot version (a snapshot entry's `versionId`), UUID form (api-spec.md section 4). */
  versionId: z.string({ error: "must be a string" }).uuid({ error: "must be a UUID (the versionId of a snapshot entry)" }),
  /** The snapshot entry's `modified` (ISO 8601), when known: what the confirmation names as the point of no return. */
  snapshotModified: z.iso.datetime({ error: "must be an ISO 8601 UTC timestamp", offset: true }).optional(),
  /** Restoring overwrites newer data for good: it runs only when this is true. */
  confirm: z.literal(true),
};

export type DatabaseRestoreInputs = z.infer<z.ZodObject<typeof databaseRestoreInputFields>>;

export interface DatabaseRestoreOutputs extends DatabaseRestoreInputs {
  /** ISO 8601 UTC time the restore was started. */
  restoredAt: string;
}
