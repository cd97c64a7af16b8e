import { operationHandler } from "../../lifecycle/operation";
import { appSnapshot, type AppSnapshotInputs, type AppSnapshotOutputs } from "../../kinds/app-snapshot";
import { takeSnapshot } from "./take";

/** A snapshot of an application, taken once; a new `trigger` (or another app) takes a new one. */
export const appSnapshotHandler = operationHandler<AppSnapshotInputs, AppSnapshotOutputs>({
  kind: appSnapshot,
  async run(inputs) {
    const taken = await takeSnapshot(inputs.appId);
    const outs: AppSnapshotOutputs = { ...inputs, ...taken };
    return { id: `${inputs.appId}@${taken.takenAt}`, outs };
  },
});
