import { z } from "zod";
import { ApiId } from "../client/payloads/platform";

/** The AppSnapshot operation's inputs: the single source of its validation rules and its types. */

export const appSnapshotInputFields = {
  appId: ApiId,
  /** Any value; a change takes a new snapshot. */
  trigger: z.unknown().optional(),
};

export type AppSnapshotInputs = z.infer<z.ZodObject<typeof appSnapshotInputFields>>;

/** What state holds for a snapshot taken: the inputs plus what the API returned. */
export interface AppSnapshotOutputs extends AppSnapshotInputs {
  /** Secret: a time-limited pre-signed download URL of the ZIP archive. Absent when the response was lost. */
  url?: string;
  /** Secret: the credentials part of that URL (access key, expiry, signature). */
  key: string;
  /** ISO 8601 UTC time the snapshot was taken (as received, or as listed). */
  takenAt: string;
}

/** Outputs the SDK marks secret, so the engine encrypts them in state. */
export const APP_SNAPSHOT_SECRET_OUTPUTS = ["url", "key"] as const;
