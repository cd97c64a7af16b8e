/**
 * Every error code, status and default message in one catalog, so the two APIs stay consistent;
 * statuses the reference leaves open are chosen here (emulator/README.md, "Choices").
 */

export interface ErrorBody {
  status: "error";
  code: string;
  message?: string;
}

export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Sent with the error's answer (a rate limit's Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "EmulatorError";
  }

  toBody(): ErrorBody {
    return { status: "error", code: this.code, message: this.message };
  }
}

const catalog = {
  // Authentication and plan.
  ACCESS_DENIED: [401, "The API key is missing or invalid."],
  PERMISSION_DENIED: [403, "Your role in this workspace does not allow this action."],

  // Transport-level problems shared by every route.
  ROUTE_NOT_FOUND: [404, "No such route."],
  METHOD_NOT_ALLOWED: [405, "This route does not accept that method."],
  INVALID_JSON: [400, "The request body is not valid JSON."],
  INVALID_BODY: [400, "The request body must be a JSON object."],
  INVALID_CONTENT_TYPE: [415, "Send JSON bodies with Content-Type: application/json."],
  PAYLOAD_TOO_LARGE: [413, "The request body is too large."],
  INVALID_ID: [400, "The identifier in the path is malformed."],
  INTERNAL_SERVER_ERROR: [500, "Unexpected emulator error."],

  // Applications.
  APP_NOT_FOUND: [404, "Application not found."],
  INVALID_RANGE: [400, "range must be daily or weekly."],
  INVALID_SCOPE: [400, "scope must be applications or databases."],
  KEEP_CALM: [429, "Only one snapshot every 5 seconds."],
  DAILY_SNAPSHOTS_LIMIT_REACHED: [429, "Daily snapshot quota reached for this account."],
  INVALID_PATH: [400, "path and to must be file paths inside the application."],
  FILE_NOT_FOUND: [404, "The source file does not exist."],
  DIRECTORY_NOT_FOUND: [404, "The destination directory does not exist."],

  // Databases.
  INVALID_NAME: [400, "Invalid name."],
  INVALID_MEMORY: [400, "Invalid memory: an integer of at least 512 MB (redis) or 1024 MB (mongo)."],
  INSUFFICIENT_MEMORY: [400, "Not enough free memory in the plan."],
  INVALID_DATABASE_TYPE: [400, "type must be mongo or redis."],
  INVALID_DATABASE_VERSION: [400, "version must be a dotted numeric version such as 7.0."],
  NO_UPDATE_DATA: [400, "Send at least one of name or ram."],
  DATABASE_NOT_FOUND: [404, "Database not found."],
  DATABASE_NOT_RUNNING: [409, "The database is not running."],
  INVALID_RESET: [400, "reset must be password or certificate."],
  INVALID_SNAPSHOT_ID: [400, "snapshotId must be a database ID."],
  INVALID_VERSION_ID: [400, "versionId must be a UUID."],
  SNAPSHOT_NOT_FOUND: [404, "No snapshot with that version for this database."],
  SNAPSHOT_ACCESS_DENIED: [403, "The snapshot link has expired or was not issued for this archive."],
  SNAPSHOT_DATABASE_MISMATCH: [400, "The snapshot belongs to another database."],
  RESTORE_IN_PROGRESS: [429, "A restore of this database started less than 60 seconds ago."],

  // Workspaces.
  WORKSPACE_NOT_FOUND: [404, "Workspace not found."],
  WORKSPACE_LIMIT_REACHED: [400, "Workspace limit reached."],
  CANNOT_LEAVE_OWNER: [400, "The owner cannot leave their own workspace."],
  CANNOT_EDIT_OWNER: [400, "The owner's membership cannot be changed."],
  CANNOT_INVITE_OWNER: [400, "The owner is already part of the workspace."],
  INVALID_GROUP: [400, "group must be one of admin, maintain, manager, view."],
  INVALID_CODE: [400, "The invite code is unknown, used or expired."],
  MEMBER_NOT_FOUND: [404, "Member not found in this workspace."],
  MEMBER_ALREADY_ADDED: [409, "That user is already a member."],
  MEMBERS_LIMIT_REACHED: [400, "Member limit reached for this workspace."],
  APP_ALREADY_IN_WORKSPACE: [409, "The application is already linked to this workspace."],
  APPLICATIONS_LIMIT_REACHED: [400, "A workspace holds at most 100 applications."],

  // Blob storage.
  INVALID_OBJECT: [400, "The object ID is malformed or cannot be deleted."],
  OBJECT_NOT_FOUND: [404, "Object not found."],
  INVALID_OBJECT_PREFIX: [400, "prefix must be 3 to 32 characters of a-z, A-Z, 0-9, _."],
  INVALID_OBJECT_NAME: [400, "name must be 3 to 32 characters of a-z, A-Z, 0-9, _."],
  INVALID_OBJECT_EXPIRE: [400, "expire must be an integer number of days from 1 to 365."],
  INVALID_CONTINUATION_TOKEN: [400, "Unknown continuation token."],
  INVALID_FILE: [400, "Send the file as a multipart/form-data part named file."],
  INVALID_FILE_TYPE: [400, "This MIME type is not accepted."],
  FILE_TOO_SMALL: [400, "Files must be at least 1 KiB."],
  FILE_TOO_LARGE: [413, "Files must be at most 100 MB."],
  TOO_MANY_CONCURRENT_UPLOADS: [429, "At most 4 uploads may be in flight per account."],
  CONTENT_NOT_KEPT: [404, "The emulator keeps no bytes for this object (seeded, or dropped past its storage bound)."],

  // Admin surface.
  INVALID_FAULT: [400, "Invalid fault specification."],
  INVALID_CLOCK: [400, "Send {advanceMs} or {now}."],
  INVALID_PLAN: [400, "Send {accountId, plan}: a seeded account's id and the name of a plan the emulator knows."],
  INVALID_WAIT: [400, "Send route (with count, a positive integer) and timeoutMs up to 60000, as the query."],
  WAIT_TIMEOUT: [408, "The awaited condition did not come true within timeoutMs."],
  INVALID_SEED: [400, "Send {seed}, a non-empty string of at most 128 characters."],
  INVALID_OBJECT_IDS: [400, 'Send {form}: "suffixed" or "plain".'],
  ACCOUNT_NOT_FOUND: [404, "No account has this id."],
  INVALID_ACCOUNT: [
    400,
    "Send {name}: 3 to 32 characters of [a-zA-Z0-9_], no account's name yet, and a plan the emulator knows.",
  ],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof catalog;

export function apiError(code: ErrorCode, message?: string): EmulatorError {
  const [status, defaultMessage] = catalog[code];
  return new EmulatorError(status, code, message ?? defaultMessage);
}

/** The blob API answers an upload from a plan without blob storage with 401, not 403 (notes). */
export function blobNotInPlan(): EmulatorError {
  return new EmulatorError(401, "PERMISSION_DENIED", "Your plan does not include blob storage.");
}

/** The account-wide request rate (an emulator option) is spent: Retry-After says when a slot frees. */
export function rateLimitExceeded(retryAfterSeconds: number): EmulatorError {
  return new EmulatorError(
    429,
    "RATE_LIMIT_EXCEEDED",
    "Too many requests with this API key; try again after Retry-After seconds.",
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/** Errors requested by a "status" fault: status and code are whatever the test asked for. */
export function injectedError(status: number, code: string): EmulatorError {
  return new EmulatorError(status, code, "Injected by the emulator's fault injection.");
}
