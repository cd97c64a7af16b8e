import type { SquareCloudClient } from "../../client";
import { apiClient, providerClock } from "../../runtime";
import type { Workspace } from "../../client/payloads/platform";

/**
 * A refresh reads every workspace and member from one listing; one missing from it is read by id,
 * so it fails as a read by id does. Changes always read afresh.
 */

/** Longer than the reads of one refresh take, short enough that a later command never sees it. */
const SHARED_FOR_MS = 30_000;

/** The listing, with the client (one per API key and URLs) whose account it shows. */
let shared: { at: number; client: SquareCloudClient; listing: Promise<Map<string, Workspace>> } | undefined;
/** Workspaces this process changed since the shared listing was asked for. */
const changedSinceListing = new Set<string>();

export async function readWorkspace(workspaceId: string): Promise<Workspace> {
  if (!changedSinceListing.has(workspaceId)) {
    const listed = (await sharedListing()).get(workspaceId);
    if (listed) return listed;
  }
  return apiClient().getWorkspace(workspaceId);
}

function sharedListing(): Promise<Map<string, Workspace>> {
  const client = apiClient();
  const now = providerClock().now();
  if (shared && shared.client === client && now - shared.at < SHARED_FOR_MS) return shared.listing;
  // Asked after every change noted so far, so it already shows them.
  changedSinceListing.clear();
  const listing = client.listWorkspaces().then((workspaces) => new Map(workspaces.map((w) => [w.id, w])));
  const mine = { at: now, client, listing };
  shared = mine;
  // A failed listing is not shared: the next reader asks again.
  listing.catch(() => {
    if (shared === mine) shared = undefined;
  });
  return listing;
}

/** The workspace as it is now, for decisions that change it. */
export function readWorkspaceAfresh(workspaceId: string): Promise<Workspace> {
  forgetWorkspace(workspaceId);
  return apiClient().getWorkspace(workspaceId);
}

/** Called by every change this process makes to the workspace, its members or its links. */
export function forgetWorkspace(workspaceId: string): void {
  changedSinceListing.add(workspaceId);
}

/** A plugin the engine attaches to serves update after update in one process: each reads afresh. */
export function forgetSharedListing(): void {
  shared = undefined;
  changedSinceListing.clear();
}
