import { describe, isUnknown } from "../../field-check";
import { operationHandler, ranAt } from "../../lifecycle/operation";
import { databaseRestore, type DatabaseRestoreInputs, type DatabaseRestoreOutputs } from "../../kinds/database-restore";
import { restoreOnce } from "./restore";

/** A restore, run once. It overwrites newer data for good, so without `confirm: true` the preview says what. */
export const databaseRestoreHandler = operationHandler<DatabaseRestoreInputs, DatabaseRestoreOutputs>({
  // replaceOn leaves out the date and the confirmation: pinning an entry's ids must not restore again.
  kind: databaseRestore,
  // Anything but true is refused with what the restore would destroy.
  ruledFields: ["confirm"],
  rules: ({ news, known }) =>
    news.confirm !== true && !isUnknown(news.confirm)
      ? [{ property: "confirm", reason: describe(confirmationRule(known), news.confirm) }]
      : [],
  async run(inputs) {
    await restoreOnce(inputs);
    const restoredAt = ranAt();
    const outs: DatabaseRestoreOutputs = { ...inputs, restoredAt };
    return { id: `${inputs.databaseId}/${inputs.versionId}@${restoredAt}`, outs };
  },
});

/** What the restore would destroy, from what is known at preview; no request is made to find out more. */
function confirmationRule(known: Partial<DatabaseRestoreInputs>): string {
  const target = known.databaseId === undefined ? "the database" : `database "${known.databaseId}"`;
  const source = known.versionId === undefined ? "the snapshot" : `snapshot version "${known.versionId}"`;
  const lost =
    known.snapshotModified === undefined
      ? "everything written to it after the snapshot was taken"
      : `everything written to it after ${known.snapshotModified} (the snapshot's date)`;
  return `must be true to restore: restoring ${source} overwrites ${target}, and ${lost} is lost for good`;
}
