import type { SquareCloudClient } from "../client";
import { apiClient } from "../runtime";

/**
 * The user id of the configured API key. A key's account never changes, so one GET /v2/users/me
 * per client (per configuration) answers every create and ownership check of the process,
 * instead of one per resource. A failed lookup is not kept: the next caller asks again.
 */
const known = new WeakMap<SquareCloudClient, Promise<string>>();

export function callerId(): Promise<string> {
  const client = apiClient();
  let id = known.get(client);
  if (!id) {
    const lookup = client.me().then((account) => account.user.id);
    lookup.catch(() => {
      if (known.get(client) === lookup) known.delete(client);
    });
    known.set(client, lookup);
    id = lookup;
  }
  return id;
}
