import type { EmulatorAdmin } from "../../../emulator";
import { OBJECT_LIST_CACHE_MS } from "../../../emulator/models/rules";
import type { SquareCloudClient } from "../../../provider/client";

/**
 * What the account holds of one run (every name carries the run's tag), read with the account's
 * own key, and how it compares with what the program declares.
 */
export interface Inventory {
  /** Database name -> ids of that name. */
  databases: Record<string, string[]>;
  /** Workspace name -> ids of that name. */
  workspaces: Record<string, string[]>;
  /** user id -> group, in the run's workspace (owner left out); empty without exactly one workspace. */
  members: Record<string, string>;
  /** Linked application ids, sorted. */
  applications: string[];
  /** Blob object ids under the run's prefixes. */
  objects: string[];
}

export async function readInventory(api: SquareCloudClient, admin: EmulatorAdmin, tag: string): Promise<Inventory> {
  // The object listing is cached for 30 s, as on the live service: past that, it shows every change.
  await admin.advanceClock(OBJECT_LIST_CACHE_MS + 1_000);
  const [account, workspaceList, objectList] = await Promise.all([
    api.me(),
    api.listWorkspaces(),
    api.listAllObjects(),
  ]);
  const databases = groupIds(account.databases.filter((db) => db.name.startsWith(tag)));
  const workspaces = groupIds(workspaceList.filter((ws) => ws.name.startsWith(tag)));
  const ours = workspaceList.filter((ws) => ws.name.startsWith(tag));
  const single = ours.length === 1 ? await api.getWorkspace(ours[0].id) : undefined;
  return {
    databases,
    workspaces,
    members: Object.fromEntries((single?.members ?? []).filter((m) => m.group !== "owner").map((m) => [m.id, m.group])),
    applications: (single?.applications ?? []).map((app) => app.id).sort(),
    objects: objectList
      .map((object) => object.id)
      .filter((id) => id.split("/")[1]?.startsWith(tag))
      .sort(),
  };
}

function groupIds(items: { id: string; name: string }[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const { id, name } of items) {
    grouped[name] ??= [];
    grouped[name].push(id);
  }
  return grouped;
}

/** What the account holds beyond what state records: a duplicate shares a declared name, an orphan does not. */
export interface Discrepancies {
  duplicates: string[];
  orphans: string[];
  /** In state but not on the account. */
  missing: string[];
}

export interface StateIds {
  databases: string[];
  workspaces: string[];
  objects: string[];
}

/**
 * Everything the account holds under the run's tag must be in state, once. An extra object whose
 * name (or, for blob objects, prefix and name before the random suffix) is also held by an
 * object in state is a duplicate; any other extra is an orphan.
 */
export function compare(held: Inventory, state: StateIds): Discrepancies {
  const result: Discrepancies = { duplicates: [], orphans: [], missing: [] };
  const named = (kind: string, live: Record<string, string[]>, inState: string[]) => {
    for (const [name, ids] of Object.entries(live)) {
      const declared = ids.some((id) => inState.includes(id));
      for (const id of ids.filter((id) => !inState.includes(id)))
        (declared ? result.duplicates : result.orphans).push(`${kind} ${name} ${id}`);
    }
    const liveIds = Object.values(live).flat();
    for (const id of inState) if (!liveIds.includes(id)) result.missing.push(`${kind} ${id}`);
  };
  named("database", held.databases, state.databases);
  named("workspace", held.workspaces, state.workspaces);
  const stem = (id: string) => id.replace(/_[^_/]*$/, "");
  const stateStems = state.objects.map(stem);
  for (const id of held.objects.filter((id) => !state.objects.includes(id))) {
    (stateStems.includes(stem(id)) ? result.duplicates : result.orphans).push(`blob object ${id}`);
  }
  for (const id of state.objects) if (!held.objects.includes(id)) result.missing.push(`blob object ${id}`);
  return result;
}
