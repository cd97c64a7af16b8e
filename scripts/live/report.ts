/** What a live suite file reports of its run, as the runner reads it (tests/live/live-suite.ts writes it). */

/** One request: its method, "METHOD template" route, path and the answer's status (never a header, query or body). */
export interface RequestRecord {
  method: string;
  route: string;
  path: string;
  status: number;
}

/** Something a create answered with: what a run made, to print and to find again. */
export interface Created {
  route: string;
  id: string;
  name?: string;
}

export interface FileReport {
  file: string;
  created: Created[];
  requests: RequestRecord[];
}
