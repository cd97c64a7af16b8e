/**
 * The service renamed its error codes to one convention (`INVALID_X`, `X_FAILED`, `X_NOT_FOUND`,
 * `X_LIMIT_REACHED`) and still answers with the old names during the transition; the official
 * type package (@squarecloud/api-types 3, `APIErrorCode`) keeps each old name as an alias of the
 * new one. Every comparison in the provider uses the new names, so an answer is read under its
 * new name whichever the server sent.
 */
const RENAMED: Readonly<Record<string, string>> = {
  ID_INVALID: "INVALID_ID",
  CODE_INVALID: "INVALID_CODE",
  NAME_INVALID: "INVALID_NAME",
  MEMORY_INVALID: "INVALID_MEMORY",
  DATABASE_TYPE_INVALID: "INVALID_DATABASE_TYPE",
  DATABASE_VERSION_INVALID: "INVALID_DATABASE_VERSION",
  UNKNOWN_WORKSPACE: "WORKSPACE_NOT_FOUND",
  UNKNOWN_MEMBER: "MEMBER_NOT_FOUND",
  MAX_APPLICATIONS_REACHED: "APPLICATIONS_LIMIT_REACHED",
  MAX_MEMBERS_REACHED: "MEMBERS_LIMIT_REACHED",
  FAILED_WORKSPACE_CREATION: "WORKSPACE_CREATION_FAILED",
  FAILED_DATABASE_CREATION: "DATABASE_CREATION_FAILED",
  FAILED_CLUSTER_SELECTION: "CLUSTER_SELECTION_FAILED",
  FEW_MEMORY: "INSUFFICIENT_MEMORY",
  FAILED_READ: "READ_FAILED",
  FAILED_DELETE: "DELETE_FAILED",
  DELETE_ERROR: "DELETE_FAILED",
  FAILED_RENAME: "RENAME_FAILED",
  FAILED_TO_SAVE: "SAVE_FAILED",
  FAILED_RESET: "RESET_FAILED",
  FAILED_UPLOAD: "UPLOAD_FAILED",
  FAILED_UPLOAD_DATA: "STORAGE_UPLOAD_FAILED",
  COMMIT_ERROR: "COMMIT_FAILED",
  INTERNAL_ERROR: "INTERNAL_SERVER_ERROR",
  REGEX_VALIDATION: "INVALID_DOMAIN",
  CAN_NOT_SET_SUBDOMAIN: "CANNOT_SET_SUBDOMAIN",
  INVALID_APP: "METRICS_NOT_SUPPORTED",
  SUBSCRIPTION_REQUIRED: "UPGRADE_REQUIRED",
};

/** The current name of a code the server sent; a code that was never renamed is its own name. */
export function currentCodeName(code: string): string {
  return Object.hasOwn(RENAMED, code) ? (RENAMED[code] as string) : code;
}
