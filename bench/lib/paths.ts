/**
 * The ways the native bench runs the same stack of blob objects: the native plugin bundled and run
 * by the node on PATH, and its floor (lib/native-floor.ts); the plugin as users get it, the host's
 * release archive with its own Node, and the floor run by that Node (lib/archive-plugin.ts); the
 * dynamic provider and its floor (lib/floor.ts). The program (programs/blobs) is TypeScript for
 * all, so a ratio compares providers, not language hosts.
 */
export const PATHS = ["native", "nativeFloor", "nativeArchive", "archiveFloor", "dynamic", "dynamicFloor"] as const;
export type BenchPath = (typeof PATHS)[number];

export const PATH_LABELS: Record<BenchPath, string> = {
  native: "native",
  nativeFloor: "native floor",
  nativeArchive: "archive",
  archiveFloor: "archive floor",
  dynamic: "dynamic",
  dynamicFloor: "dynamic floor",
};

/**
 * The paths a comma-separated list names (e.g. `native,nativeFloor`), in the order of `known`: the
 * paths of a bench, PATHS unless it runs others.
 */
export function parsePaths<P extends string = BenchPath>(list: string, known: readonly P[] = PATHS as never): P[] {
  const named = list.split(",").map((name) => name.trim());
  const unknown = named.filter((name) => !(known as readonly string[]).includes(name));
  if (unknown.length > 0 || named.length === 0)
    throw new Error(`--paths takes a list of ${known.join(", ")}; got ${list}`);
  return known.filter((path) => named.includes(path));
}
