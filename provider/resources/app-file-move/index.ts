import { ApiError } from "../../client";
import { describe } from "../../field-check";
import { operationHandler, ranAt } from "../../lifecycle/operation";
import { warn } from "../../channels";
import { apiClient } from "../../runtime";
import { appFileMove, type AppFileMoveInputs, type AppFileMoveOutputs } from "../../kinds/app-file-move";

/** One move or rename of a file in an application, done once; deleting it does not move it back. */
export const appFileMoveHandler = operationHandler<AppFileMoveInputs, AppFileMoveOutputs>({
  kind: appFileMove,
  rules: ({ known }) =>
    known.path !== undefined && known.path === known.to
      ? [{ property: "to", reason: describe("must differ from path", known.to) }]
      : [],
  async run(inputs) {
    await moveOnce(inputs);
    const movedAt = ranAt();
    const outs: AppFileMoveOutputs = { ...inputs, movedAt };
    return { id: `${inputs.appId}:${inputs.path}@${movedAt}`, outs };
  },
});

/** Retried like any PATCH: after a lost attempt that moved the file, the retry gets FILE_NOT_FOUND. */
async function moveOnce(inputs: AppFileMoveInputs): Promise<void> {
  try {
    await apiClient().moveAppFile(inputs.appId, { path: inputs.path, to: inputs.to });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "FILE_NOT_FOUND" && err.afterLostAttempt) {
      warn(
        `moving "${inputs.path}" to "${inputs.to}" in application "${inputs.appId}": an answer was lost and the ` +
          `file is no longer at "${inputs.path}", so that request moved it; recorded as done`,
      );
      return;
    }
    if (err.code === "FILE_NOT_FOUND") {
      throw new Error(
        `application "${inputs.appId}" has no file "${inputs.path}" to move (${err.message}). Check the path; if an ` +
          `earlier run moved it, it is at that run's destination. To move a file that this resource moved before, ` +
          `set path to where it is now (the previous to).`,
      );
    }
    if (err.code === "DIRECTORY_NOT_FOUND") {
      throw new Error(
        `the destination directory "${parentOf(inputs.to)}" does not exist in application "${inputs.appId}" ` +
          `(${err.message}). The API does not create directories: move the file into an existing one.`,
      );
    }
    throw err;
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash);
}
