import { ApiError, isNotFound } from "../client";
import { SETTINGS } from "../config";
import { callerId } from "./caller";

/**
 * Gone, or not visible to this key? "Not found" counts as gone only for the owner's key
 * (docs/reliability.md, "One object, one resource").
 */

/** How a kind's API answers a key that cannot see one of its objects. */
export interface Visibility {
  /** Its "no such object" code, e.g. DATABASE_NOT_FOUND. */
  notFound: `${string}_NOT_FOUND`;
  /** Whether another account's key may get PERMISSION_DENIED instead (a workspace's members do). */
  deniedToOthers?: boolean;
}

/**
 * After a request on an object failed: returns when the failure means the object is gone, and
 * throws otherwise (the failure itself, or the other-account error). `operation` begins the
 * message and names the object with its id, e.g. `delete database "cache" (db_1)`; `owner` is the
 * owner's account as recorded in state. Asks for the key's account (once per process) only on a
 * "not found" or a refusal of an object whose owner is known.
 */
export async function confirmGone(
  err: unknown,
  kind: Visibility,
  operation: string,
  owner: string | undefined,
): Promise<void> {
  const denied = kind.deniedToOthers === true && err instanceof ApiError && err.code === "PERMISSION_DENIED";
  if (!denied && !isNotFound(err, kind.notFound)) throw err;
  const { code } = err as ApiError;
  const answer = denied ? code : `${code}: another account's key gets it whether or not the object still exists`;
  if (owner !== undefined) refuseOtherAccount(operation, owner, await callerId(), answer);
  // The owner's own key was refused: that is no sign of a deletion.
  if (denied) throw err;
}

/**
 * The other-account error, when the key's account (`caller`) is known and is not the owner's.
 * Called by confirmGone, and directly where both accounts are known before anything is changed:
 * a blob object's id and its API key both start with the account, and an adopted workspace names
 * its owner. `answer` says what the API answered, when that is why the check is made.
 */
export function refuseOtherAccount(
  operation: string,
  owner: string,
  caller: string | undefined,
  answer?: string,
): void {
  if (caller === undefined || caller === owner) return;
  throw new Error(
    `${operation}: only its owner, account ${owner}, can do this, and the configured API key is for account ` +
      `${caller}${answer === undefined ? "" : ` (${answer})`}. Use the owner's key (${SETTINGS.apiKey.key} or ` +
      `${SETTINGS.apiKey.env}). Nothing was changed.`,
  );
}
