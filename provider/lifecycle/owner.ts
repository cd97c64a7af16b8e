import { callerId } from "./caller";

/**
 * The API answers "not found" for another account's objects too: with the wrong key, refresh
 * would drop objects that still exist and destroy would report them deleted. Before treating a
 * "not found" as gone, a resource whose owner is recorded in state checks that the configured key
 * is that owner's. State without an owner (older versions) cannot be checked.
 *
 * `what` names the object as messages do, e.g. `database "cache"`.
 */
export async function confirmGone(what: string, id: string, owner: string | undefined): Promise<void> {
  if (owner === undefined) return;
  const caller = await callerId();
  if (caller !== owner) {
    throw new Error(
      `${what} (${id}) is not found with the configured API key, which is for another account ` +
        `than the one that owns it: either the key is wrong (check squarecloud:apiKey or SQUARECLOUD_API_KEY) ` +
        `or the object was deleted. Nothing was changed.`,
    );
  }
}
