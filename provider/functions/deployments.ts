import type { DeploymentEvent } from "../client/payloads/platform";
import { newestFirst, time } from "./dates";

/**
 * Deployments most recent first, events earliest first: grouped and sorted again though the API
 * already does, in case a deployment comes split or out of order.
 */
export function groupDeployments(groups: readonly (readonly DeploymentEvent[])[]) {
  const byId = new Map<string, { state: string; date: string }[]>();
  for (const event of groups.flat()) {
    const steps = byId.get(event.id) ?? [];
    steps.push({ state: event.state, date: event.date });
    byId.set(event.id, steps);
  }
  const deployments = [...byId].map(([id, steps]) => {
    const events = [...steps].sort((a, b) => time(a.date) - time(b.date));
    const first = events[0]!;
    const last = events[events.length - 1]!;
    return { id, state: last.state, startedAt: first.date, updatedAt: last.date, events };
  });
  return newestFirst(deployments, (deployment) => deployment.startedAt);
}
