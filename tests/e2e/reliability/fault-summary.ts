import type { FaultRunResult } from "./fault-run";

/** The fault runs of one rate, added up. */
export interface RateSummary {
  rate: number;
  runs: number;
  /** Runs that converged with no `up` run again, with one more, with more than one more. */
  convergedOnUp: [number, number, number];
  /** Runs that did not converge within the contract (fault-run.ts). */
  notConverged: number;
  /** Runs in which some command failed at least once (and was run again). */
  commandFailed: number;
  /** Runs in which some command ran a third time or later (refused over unknown-outcome creates only). */
  extraRuns: number;
  /** Why: how often each resource's create was refused in a run that made another necessary. */
  extraRunCauses: Record<string, number>;
  duplicates: number;
  orphans: number;
  passwordsLost: number;
  passwordsLostUnreported: number;
  requests: number;
  faults: number;
  retries: number;
}

export function summarizeByRate(results: FaultRunResult[]): RateSummary[] {
  return [...new Set(results.map((r) => r.rate))].map((rate) => {
    const runs = results.filter((r) => r.rate === rate);
    const sum = (count: (r: FaultRunResult) => number) => runs.reduce((total, r) => total + count(r), 0);
    const converged = (ups: (n: number) => boolean) => sum((r) => Number(r.failure === undefined && ups(r.ups)));
    const extraRunCauses: Record<string, number> = {};
    for (const resource of runs.flatMap((r) => r.extraRuns.flatMap((extra) => extra.refused))) {
      extraRunCauses[resource] = (extraRunCauses[resource] ?? 0) + 1;
    }
    return {
      rate,
      runs: runs.length,
      convergedOnUp: [converged((n) => n === 1), converged((n) => n === 2), converged((n) => n >= 3)],
      notConverged: sum((r) => Number(r.failure !== undefined)),
      commandFailed: sum((r) => Number(r.commandFailed)),
      extraRuns: sum((r) => Number(r.extraRuns.length > 0)),
      extraRunCauses,
      duplicates: sum((r) => r.duplicates),
      orphans: sum((r) => r.orphans),
      passwordsLost: sum((r) => r.reportedLostPasswords + r.unreportedPasswords),
      passwordsLostUnreported: sum((r) => r.unreportedPasswords),
      requests: sum((r) => r.tally.requests),
      faults: sum((r) => r.tally.faults),
      retries: sum((r) => r.tally.retries),
    };
  });
}
