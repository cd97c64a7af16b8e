import { resolveConfig } from "../../provider/config";

/** What a live run is given: the environment a maintainer or CI sets. */
export interface LiveSettings {
  /** The owner's key; every object the run makes is the owner's. */
  apiKey: string;
  /** A second account's key: adds the membership tests. */
  inviteeKey?: string;
  /**
   * The owner's applications the run may use (SQUARECLOUD_LIVE_APPS, ids separated by commas): a
   * workspace links three of them, and the first is the one the operations snapshot. Their files
   * change only when `moveFile` names one.
   */
  apps: string[];
  /**
   * SQUARECLOUD_LIVE_MOVE_FILE: a file of the first application (a path from its root) that
   * AppFileMove may rename, within its directory, to a name with the run's prefix, and back.
   */
  moveFile?: string;
  /**
   * SQUARECLOUD_LIVE_DATABASE: one of the owner's databases, made outside the run, whose metrics
   * and latest snapshot the data sources read. The run never changes it, and makes no database
   * to read: the API cannot snapshot one, and a fresh one has few metrics to show.
   */
  database?: string;
  /** The service, as the provider's own settings name it (SQUARECLOUD_PLATFORM_URL, SQUARECLOUD_BLOB_URL, their defaults). */
  platformUrl: string;
  blobUrl: string;
}

export const LIVE_SWITCH = "SQUARECLOUD_LIVE";
export const INVITEE_KEY = "SQUARECLOUD_LIVE_INVITEE_KEY";
export const APPS = "SQUARECLOUD_LIVE_APPS";
export const MOVE_FILE = "SQUARECLOUD_LIVE_MOVE_FILE";
export const DATABASE = "SQUARECLOUD_LIVE_DATABASE";
/** Set by the runner for the test files: the prefix of every name the run makes. */
export const RUN_PREFIX = "SQUARECLOUD_LIVE_RUN_PREFIX";
/** Set by the runner for the test files: where each file writes what it made and the requests it sent. */
export const REPORT_DIR = "SQUARECLOUD_LIVE_REPORT_DIR";

/** The settings of a live run, or why there is none (nothing is run then). */
export function liveSettings(env: NodeJS.ProcessEnv = process.env): LiveSettings | { skip: string } {
  if (env[LIVE_SWITCH] !== "1")
    return { skip: `${LIVE_SWITCH} is not 1 (a live run makes and deletes objects on the service)` };
  if (!env.SQUARECLOUD_API_KEY?.trim())
    return { skip: "SQUARECLOUD_API_KEY is not set (the key of the account the run uses)" };
  // The provider's own reading of the settings: the run goes where a program would.
  const { apiKey, platformUrl, blobUrl } = resolveConfig({});
  const inviteeKey = env[INVITEE_KEY]?.trim() || undefined;
  const apps = (env[APPS] ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  const moveFile = env[MOVE_FILE]?.trim() || undefined;
  const database = env[DATABASE]?.trim() || undefined;
  return {
    apiKey,
    platformUrl,
    blobUrl,
    apps,
    ...(inviteeKey ? { inviteeKey } : {}),
    ...(moveFile ? { moveFile } : {}),
    ...(database ? { database } : {}),
  };
}

/** Where AppFileMove moves `moveFile` in a run: the same directory, the name after `<run prefix>_`. */
export function movedFilePath(moveFile: string, runPrefix: string): string {
  const at = moveFile.lastIndexOf("/") + 1;
  return `${moveFile.slice(0, at)}${runPrefix}_${moveFile.slice(at)}`;
}

/** Why the operations on an application do not run, or undefined when they do. */
export function operationsSkip(settings: LiveSettings): string | undefined {
  return settings.apps.length === 0 ? `no ${APPS} (the application the run snapshots)` : undefined;
}

/** Why the data sources of one application (getApp, its analytics, its deployments) are not read, or undefined when they are. */
export function appReadsSkip(settings: LiveSettings): string | undefined {
  return settings.apps.length === 0 ? `no ${APPS} (the application the data sources read)` : undefined;
}

/** Why the data sources of one database (its metrics, its latest snapshot) are not read, or undefined when they are. */
export function databaseReadsSkip(settings: LiveSettings): string | undefined {
  return settings.database ? undefined : `no ${DATABASE} (a database of the account the data sources read)`;
}

/** Why AppFileMove does not run, or undefined when it does. */
export function fileMoveSkip(settings: LiveSettings): string | undefined {
  return settings.moveFile
    ? undefined
    : `no ${MOVE_FILE} (a file of the first application the run may rename and back)`;
}

/** Why the membership tests do not run, or undefined when they do. */
export function membershipSkip(settings: LiveSettings): string | undefined {
  if (!settings.inviteeKey) return `no ${INVITEE_KEY} (a second account's key, which the tests invite)`;
  if (settings.apps.length < 3) return `${APPS} names ${settings.apps.length} application(s); a workspace links three`;
  return undefined;
}

/** The settings of a test file the runner started: a missing one is the runner's mistake, never a skip. */
export function runnerSettings(): LiveSettings & { runPrefix: string; reportDir: string } {
  const settings = liveSettings();
  const runPrefix = process.env[RUN_PREFIX];
  const reportDir = process.env[REPORT_DIR];
  if ("skip" in settings || !runPrefix || !reportDir)
    throw new Error(`the live suites run from \`npm run test:live\`, which sets ${RUN_PREFIX} and ${REPORT_DIR}`);
  return { ...settings, runPrefix, reportDir };
}
