import type { Cost } from "./cpu";
import { table } from "./report";
import type { RolePeak } from "./rss";

/**
 * What the synced-folder bench measures and how it prints it: per path (the program's language
 * and the provider that serves it), each command beside its goal and beside the same command on
 * a folder of FLOOR_FILES files, the floor of that path at the load of the moment.
 */

/**
 * The TypeScript SDK's program with its dynamic provider; a YAML program with the native plugin,
 * bundled and run by the node on PATH or as users get it, from the release archive with its own Node.
 */
export const SYNCED_PATHS = ["typescript", "yaml", "yamlArchive"] as const;
export type SyncedPath = (typeof SYNCED_PATHS)[number];

export const SYNCED_PATH_LABELS: Record<SyncedPath, string> = {
  typescript: "TypeScript program, dynamic provider",
  yaml: "YAML program, native plugin",
  yamlArchive: "YAML program, archive's plugin",
};

/** The folder whose commands cost what the engine, the program and the provider cost at any size. */
export const FLOOR_FILES = 3;

/** The goals of the synced mode: the first `up` against the plain script, the others in seconds. */
export const GOALS = { upOverPlain: 1.3, changeOneMs: 5000, previewMs: 3000 };

/** One `pulumi` command: its cost, the 1-minute load average when it started, and the uploads it made. */
export interface Timed extends Cost {
  load: number;
  uploads: number;
}

/** The commands run on one folder: the first `up`, an `up` after changing one file, a `preview` unchanged. */
export interface FolderRun {
  files: number;
  up: Timed;
  changeOne: Timed;
  preview: Timed;
}

export interface PathRun {
  path: SyncedPath;
  timed: FolderRun;
  floor: FolderRun;
}

/** The plain undici script's upload of the same files. */
export interface PlainRun {
  files: number;
  wallMs: number;
  load: number;
  uploads: number;
}

export interface MemoryRun {
  files: number;
  path: SyncedPath;
  peaks: RolePeak[];
}

const s = (ms: number) => (ms / 1000).toFixed(1);

/** `< 5 s: met`, or by how much it was missed. */
function withinSeconds(wallMs: number, goalMs: number): string {
  const goal = `< ${s(goalMs)} s`;
  return wallMs < goalMs ? `${goal}: met` : `${goal}: missed by ${s(wallMs - goalMs)} s`;
}

function overPlain(wallMs: number, plain: PlainRun): string {
  const ratio = wallMs / plain.wallMs;
  return `< ${GOALS.upOverPlain}x plain: ${ratio.toFixed(2)}x, ${ratio < GOALS.upOverPlain ? "met" : "missed"}`;
}

export function timingsTable(plain: PlainRun, runs: PathRun[]): string {
  const row = (label: string, timed: Timed, floor: Timed, goal: string) => [
    `  ${label}`,
    s(timed.wallMs),
    s(timed.cpuMs),
    timed.load.toFixed(1),
    String(timed.uploads),
    goal,
    s(floor.wallMs),
    s(floor.cpuMs),
    floor.load.toFixed(1),
    s(timed.cpuMs - floor.cpuMs),
  ];
  const rows = [
    [
      `plain undici script, ${plain.files} files, 4 at a time`,
      s(plain.wallMs),
      "-",
      plain.load.toFixed(1),
      String(plain.uploads),
      "",
      "",
      "",
      "",
      "",
    ],
    ...runs.flatMap(({ path, timed, floor }) => [
      [`${SYNCED_PATH_LABELS[path]}:`, "", "", "", "", "", "", "", "", ""],
      row(`first pulumi up, ${timed.files} files`, timed.up, floor.up, overPlain(timed.up.wallMs, plain)),
      row(
        "pulumi up after changing one file",
        timed.changeOne,
        floor.changeOne,
        withinSeconds(timed.changeOne.wallMs, GOALS.changeOneMs),
      ),
      row(
        "pulumi preview, unchanged",
        timed.preview,
        floor.preview,
        withinSeconds(timed.preview.wallMs, GOALS.previewMs),
      ),
    ]),
  ];
  const floorOf = `${FLOOR_FILES} files`;
  return table(
    [
      "run",
      "wall s",
      "CPU s",
      "load",
      "uploads",
      "goal (wall)",
      `${floorOf}: wall s`,
      "CPU s",
      "load",
      "CPU over floor s",
    ],
    rows,
  );
}

export function memoryTable(runs: MemoryRun[]): string {
  return table(
    ["files", "path", "process", "processes", "peak RSS MiB"],
    runs.flatMap(({ files, path, peaks }) =>
      peaks.map((peak) => [String(files), path, peak.role, String(peak.processes), String(peak.peakMiB)]),
    ),
  );
}
