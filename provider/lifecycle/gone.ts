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
 * Returns when a failed request means the object is gone; throws the failure or the other-account
 * error otherwise. `operation` names the object: `delete database "cache" (db_1)`.
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

/** Also called directly where both accounts are known before any change (a blob id, an adopted workspace). */
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
