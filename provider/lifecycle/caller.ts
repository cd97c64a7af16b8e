import type { SquareCloudClient } from "../client";
import { apiClient } from "../runtime";

/** A key's account never changes: one lookup per client serves the process; a failed one is not kept. */
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
