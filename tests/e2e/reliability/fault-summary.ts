import type { FaultRunResult } from "./fault-run";

/** The fault runs of one rate, added up. */
export interface RateSummary {
  rate: number;
  runs: number;
  /** Runs that converged with no `up` run again, with one more, with two more. */
  convergedOnUp: [number, number, number];
  notConverged: number;
  /** Runs in which some command failed at least once (and was run again). */
  commandFailed: number;
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
    const convergedOn = (ups: number) => sum((r) => Number(r.failure === undefined && r.ups === ups));
    return {
      rate,
      runs: runs.length,
      convergedOnUp: [convergedOn(1), convergedOn(2), convergedOn(3)],
      notConverged: sum((r) => Number(r.failure !== undefined)),
      commandFailed: sum((r) => Number(r.commandFailed)),
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
