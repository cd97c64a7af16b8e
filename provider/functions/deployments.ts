import type { DeploymentEvent } from "../client/payloads/platform";
import { newestFirst, time } from "./dates";

/** An event as read, its `branch` absent or given. */
type DeploymentEventRead = Omit<DeploymentEvent, "branch"> & { branch?: string };

/**
 * Deployments most recent first, events earliest first: grouped and sorted again though the API
 * already does, in case a deployment comes split or out of order. A deployment's branch is the one
 * its events name (its `clone` event's), absent when none does.
 */
export function groupDeployments(groups: readonly (readonly DeploymentEventRead[])[]) {
  const byId = new Map<string, { state: string; date: string; branch?: string }[]>();
  for (const event of groups.flat()) {
    const steps = byId.get(event.id) ?? [];
    steps.push({ state: event.state, date: event.date, ...(event.branch ? { branch: event.branch } : {}) });
    byId.set(event.id, steps);
  }
  const deployments = [...byId].map(([id, steps]) => {
    const sorted = [...steps].sort((a, b) => time(a.date) - time(b.date));
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    const branch = sorted.find((step) => step.branch !== undefined)?.branch;
    const events = sorted.map(({ state, date }) => ({ state, date }));
    return {
      id,
      state: last.state,
      ...(branch ? { branch } : {}),
      startedAt: first.date,
      updatedAt: last.date,
      events,
    };
  });
  return newestFirst(deployments, (deployment) => deployment.startedAt);
}
