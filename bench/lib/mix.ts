/**
 * The resources of a benchmark stack of N: mostly blob objects, some databases, workspaces with
 * members. Members are capped at three because each invitee has one single-use code at a time
 * (so one `up` can add each of the three other seeded accounts once), and workspaces at ten (the
 * most one account may own).
 */
export interface Mix {
  blobs: number;
  databases: number;
  workspaces: number;
  members: number;
}

export const BLOB_PREFIXES = 4;
/** Bytes per blob object: the 1 KiB minimum, plus a line that makes each one unique. */
export const BLOB_BYTES = 1024;

export function mixFor(total: number): Mix {
  const workspaces = Math.min(10, Math.max(1, Math.round(total / 50)));
  const members = Math.min(3, Math.max(1, Math.round(total / 30)));
  const databases = Math.max(2, Math.round(total / 25));
  const blobs = total - workspaces - members - databases;
  if (blobs < 1) throw new Error(`a benchmark stack needs at least 5 resources, got ${total}`);
  return { blobs, databases, workspaces, members };
}

/** The names the program and the plain script give the i-th resource of each kind. */
export const names = {
  blob: (i: number) => ({ name: `obj_${i}`, prefix: `assets_${i % BLOB_PREFIXES}` }),
  blobFile: (i: number) => `files/obj_${i}.txt`,
  blobText: (i: number) => `object ${i}\n${"x".repeat(BLOB_BYTES)}`,
  /** Renamed by the update step (a PATCH), generation 1 at creation. */
  database: (i: number, generation: number) => `db${i}g${generation}`,
  workspace: (i: number) => `bench_ws_${i}`,
  /** The update step moves every member to another group (a PATCH). */
  memberGroup: (generation: number) => (generation % 2 === 1 ? "view" : "maintain"),
};

/** Invitees of the bench account (dave), in order; member i is invitee i in workspace i mod W. */
export const INVITEES = ["alice", "bob", "carol"] as const;
