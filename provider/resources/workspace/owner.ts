import { ApiError, isNotFound } from "../../client";
import { callerId } from "../../lifecycle/caller";

/**
 * Only a workspace's owner may delete it or manage its members and links. Another account's key
 * gets PERMISSION_DENIED (a member) or WORKSPACE_NOT_FOUND (anyone else); either way the error
 * names the owner recorded in state and the account of the key, so it is not taken for a deletion.
 * Returns when the failure means the workspace is really gone (the owner's key cannot see it).
 */
export async function ownerOnly(err: unknown, action: string, what: string, owner: string | undefined): Promise<void> {
  const refused = err instanceof ApiError && err.code === "PERMISSION_DENIED";
  if (!refused && !isNotFound(err, "WORKSPACE_NOT_FOUND")) throw err;
  if (owner === undefined) {
    if (refused) throw err;
    return;
  }
  const caller = await callerId();
  if (caller === owner) {
    if (refused) throw err;
    return;
  }
  throw new Error(
    `${action} ${what}: only its owner, user ${owner}, can do this, and the configured API key is for user ` +
      `${caller} (${(err as ApiError).code}). Use the owner's key (squarecloud:apiKey or SQUARECLOUD_API_KEY). ` +
      `Nothing was changed.`,
  );
}
