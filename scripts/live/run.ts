import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { createClient } from "../../provider/client";
import type { FileReport } from "./report";
import { newRunPrefix } from "./run-prefix";
import {
  appReadsSkip,
  databaseReadsSkip,
  fileMoveSkip,
  liveSettings,
  membershipSkip,
  movedFilePath,
  operationsSkip,
  REPORT_DIR,
  RUN_PREFIX,
} from "./settings";
import { deleteLeaks, describeLeak, findLeaks, moveFileBack } from "./sweep";

/** The exit status of `--check` when the run is skipped (scripts/test-live then exits 0). */
const SKIPPED = 3;
/** dist/scripts/live/ is three levels below the repository. */
const repoRoot = path.resolve(__dirname, "..", "..", "..");

/**
 * `npm run test:live`: the shared lifecycles of tests/live/suites against the service the
 * provider's settings name, every name under one run prefix; then the sweep of that prefix (after
 * a failure too); then what the run made, the requests it sent and what the sweep found. A
 * leftover the sweep had to delete fails the run: the suites must leave nothing.
 */
async function main(): Promise<number> {
  const settings = liveSettings();
  if ("skip" in settings) {
    process.stdout.write(`test:live skipped: ${settings.skip}\n`);
    return process.argv.includes("--check") ? SKIPPED : 0;
  }
  if (process.argv.includes("--check")) return 0;

  const runPrefix = newRunPrefix();
  const reportDir = path.resolve(process.env[REPORT_DIR] ?? path.join(repoRoot, ".live-report", runPrefix));
  mkdirSync(reportDir, { recursive: true });
  // For a sweep after the run that outlives it (CI's, should the run be killed).
  writeFileSync(path.join(reportDir, "run-prefix"), `${runPrefix}\n`);
  const say = (line: string) => process.stdout.write(`[test:live] ${line}\n`);
  say(`service: ${settings.platformUrl} and ${settings.blobUrl}; run prefix ${runPrefix}; report in ${reportDir}`);
  const parts: [string, string | undefined][] = [
    ["Workspace and WorkspaceMember", membershipSkip(settings)],
    ["AppSnapshot", operationsSkip(settings)],
    ["AppFileMove", operationsSkip(settings) ?? fileMoveSkip(settings)],
    ["getApp, getAppAnalytics and getAppDeployments", appReadsSkip(settings)],
    ["getDatabaseMetrics and getLatestDatabaseSnapshot", databaseReadsSkip(settings)],
  ];
  for (const [part, skip] of parts) say(skip ? `${part} skipped: ${skip}` : `${part}: run`);

  const jest = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, "node_modules", "jest", "bin", "jest.js"),
      "--rootDir",
      repoRoot,
      "--roots",
      path.join(repoRoot, "dist", "tests", "live", "suites"),
      "--testMatch",
      "**/*.live.js",
      "--maxWorkers=2",
      ...process.argv.slice(2),
    ],
    { cwd: repoRoot, stdio: "inherit", env: { ...process.env, [RUN_PREFIX]: runPrefix, [REPORT_DIR]: reportDir } },
  );
  const suitesPassed = jest.status === 0;

  // The run's own prefix, whatever its age, whatever the suites did.
  const client = createClient(settings);
  let leftovers = 0;
  try {
    const leaks = await findLeaks(client, { prefix: runPrefix, olderThanMs: 0 });
    const { deleted, failed } = await deleteLeaks(client, leaks);
    leftovers = leaks.length;
    say(`sweep of ${runPrefix}: ${leaks.length} left behind, ${deleted.length} deleted`);
    for (const leak of deleted) say(`  swept ${describeLeak(leak)}`);
    for (const { leak, error } of failed) say(`  NOT swept ${describeLeak(leak)}: ${error}`);
    const [appId] = settings.apps;
    if (appId && settings.moveFile) {
      const move = { path: settings.moveFile, to: movedFilePath(settings.moveFile, runPrefix) };
      if (await moveFileBack(client, appId, move)) {
        leftovers += 1;
        say(`  moved ${move.to} of application ${appId} back to ${move.path}`);
      }
    }
  } finally {
    await client.close();
  }

  const reports: FileReport[] = readdirSync(reportDir)
    .filter((entry) => entry.endsWith(".live.js.json"))
    .map((entry) => JSON.parse(readFileSync(path.join(reportDir, entry), "utf8")));
  const summary = summarize(reports);
  writeFileSync(path.join(reportDir, "summary.txt"), summary);
  process.stdout.write(summary);
  if (!suitesPassed) say("FAILED: a live suite failed (above)");
  if (leftovers > 0) say("FAILED: the suites left objects behind, which the sweep deleted");
  return suitesPassed && leftovers === 0 ? 0 : 1;
}

/** What each file made and the requests it sent, by route and status. */
function summarize(reports: FileReport[]): string {
  const lines: string[] = [];
  for (const report of reports.sort((a, b) => a.file.localeCompare(b.file))) {
    lines.push(`${report.file}: ${report.created.length} made, ${report.requests.length} requests`);
    for (const made of report.created) lines.push(`  made    ${made.route}  ${made.name ?? ""} ${made.id}`);
    const counts = new Map<string, number>();
    for (const { route, status } of report.requests) {
      const key = `${route} ${status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, count] of [...counts].sort()) lines.push(`  ${String(count).padStart(4)}  ${key}`);
  }
  return `${lines.join("\n")}\n`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`test:live: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
