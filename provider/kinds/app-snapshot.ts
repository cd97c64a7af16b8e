import { z } from "zod";
import { ApiId } from "../client/payloads/platform";
import { declareKind, field, type InputsOf, operationImport, type OutputsOf } from "./declaration";

export const appSnapshot = declareKind({
  name: "AppSnapshot",
  kind: "appSnapshot",
  description: `A snapshot (backup) of an application's files, taken once by the \`pulumi up\` that creates the
resource. Later runs take no new one unless \`trigger\` (any value: a date, a release tag, a
counter) or \`appId\` changes; then a new snapshot replaces this one in state. Removing the
resource takes nothing back: it leaves the state only.

\`url\` (a time-limited pre-signed download URL of the ZIP archive) and \`key\` (its credentials)
are secrets. The API allows one snapshot per 5 seconds (the provider paces them) and
(plan RAM / 256) * 2 per 24 hours per account.`,
  inputs: {
    appId: field(ApiId, "The application whose files are saved. A change takes a new snapshot."),
    trigger: field(z.unknown().optional(), "Any value; a change takes a new snapshot.", { sdkType: "unknown" }),
  },
  outputs: {
    url: field(
      z.string().optional(),
      "A time-limited pre-signed download URL of the ZIP archive. Absent when the response was lost.",
    ),
    key: field(z.string(), "The credentials part of that URL (access key, expiry, signature)."),
    takenAt: field(z.string(), "ISO 8601 UTC time the snapshot was taken (as received, or as listed)."),
  },
  secretOutputs: ["url", "key"],
  replaceOn: ["appId", "trigger"],
  apis: ["platform"],
  import: operationImport(
    "a snapshot taken once",
    "an AppSnapshot to take a snapshot, and read existing ones with `getSnapshots`",
  ),
});

export type AppSnapshotInputs = InputsOf<typeof appSnapshot>;
export type AppSnapshotOutputs = OutputsOf<typeof appSnapshot>;
