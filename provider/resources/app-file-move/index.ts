import { ApiError } from "../../client";
import { checkFields, describe } from "../../check";
import { operationHandler } from "../../lifecycle/operation";
import { apiClient } from "../../runtime";
import { appFileMoveInputFields, AppFileMoveInputs, AppFileMoveOutputs } from "../../schemas/app-file-move";

/** One move or rename of a file in an application, done once; deleting it does not move it back. */
export const appFileMoveHandler = operationHandler<AppFileMoveInputs, AppFileMoveOutputs>({
  inputs: ["appId", "path", "to"],
  validate(news) {
    const { failures, known } = checkFields(appFileMoveInputFields, news);
    if (known.path !== undefined && known.path === known.to) {
      failures.push({ property: "to", reason: describe("must differ from path", known.to) });
    }
    return failures;
  },
  async run(inputs) {
    await moveOnce(inputs);
    const movedAt = new Date().toISOString();
    const outs: AppFileMoveOutputs = { ...inputs, movedAt };
    return { id: `${inputs.appId}:${inputs.path}@${movedAt}`, outs };
  },
});

async function moveOnce(inputs: AppFileMoveInputs): Promise<void> {
  try {
    await apiClient().moveAppFile(inputs.appId, { path: inputs.path, to: inputs.to });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "FILE_NOT_FOUND") {
      throw new Error(
        `application "${inputs.appId}" has no file "${inputs.path}" to move (${err.message}). Check the path; if the ` +
          `file was moved already (by an earlier run, or by this one when the request had to be sent again after a ` +
          `lost response), look for it at "${inputs.to}".`,
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
