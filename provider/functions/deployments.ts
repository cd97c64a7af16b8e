import type { DeploymentEvent } from "../client/payloads/platform";
import { newestFirst, time } from "./dates";

export interface DeploymentStep {
  /** pending, clone, success, error, commit, restarting, or a state not documented yet. */
  state: string;
  /** ISO 8601. */
  date: string;
}

export interface Deployment {
  id: string;
  /** The state of the latest event: the outcome once the deployment is over. */
  state: string;
  /** ISO 8601: the first event. */
  startedAt: string;
  /** ISO 8601: the latest event. */
  updatedAt: string;
  /** Earliest first. */
  events: DeploymentStep[];
}

/**
 * Deployments, most recent first, each with its events earliest first. The API already groups
 * events by deployment and orders them; grouping again by id and sorting keeps that promise even
 * if a deployment comes split or out of order.
 */
export function groupDeployments(groups: readonly (readonly DeploymentEvent[])[]): Deployment[] {
  const byId = new Map<string, DeploymentStep[]>();
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
