import { SEED_APPS } from "../../../emulator";
import type { RequestLogEntry } from "../../../emulator";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// Two stacks of one account at once, one of them 100 resources at the engine's default
// parallelism: the service's limits (4 uploads in flight per account, one app snapshot per 5 s,
// one analytics computation per 10 s) slow the run down but never fail a resource.
//
// The client paces snapshots on the real clock (the service's window is real time), so the
// paced part stays small: 3 snapshots cost about 10 s of waiting.

const SNAPSHOT_APPS = [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceBot];
const ANALYTICS_APPS = [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceBot];
const BIG = { objects: 95, snapshots: SNAPSHOT_APPS.length, databases: ["manyone", "manytwo"] };
/** Each engine operation here walks 100 resources, on a machine shared with other test files. */
const HUNDRED_RESOURCES_MS = 600_000;

const suite = emulatorSuite();

function logOf(entries: RequestLogEntry[], route: string): RequestLogEntry[] {
  return entries.filter((e) => e.route === route);
}

describe("two stacks of one account at once, one with 100 resources", () => {
  let big: ProgramStack;
  let small: ProgramStack;

  beforeAll(async () => {
    const config = emulatorConfig(suite.emulator);
    [big, small] = await Promise.all([
      programStack({
        program: "many",
        config: {
          ...config,
          prefix: { value: "many" },
          objects: { value: String(BIG.objects) },
          snapshotApps: { value: JSON.stringify(SNAPSHOT_APPS) },
          databases: { value: JSON.stringify(BIG.databases) },
          analyticsApps: { value: JSON.stringify(ANALYTICS_APPS) },
        },
      }),
      programStack({
        program: "many",
        config: {
          ...config,
          prefix: { value: "other" },
          objects: { value: "5" },
          databases: { value: JSON.stringify(["otherdb"]) },
          workspace: { value: "other_team" },
        },
      }),
    ]);
    suite.keep(big);
    suite.keep(small);
  });

  test(
    "both ups succeed at once; uploads, snapshots and analytics stay within the service's limits",
    async () => {
      await suite.emulator.admin.clearRequests();
      // Slower uploads, as over a real network, so that the engine's parallel creates overlap.
      await suite.emulator.admin.injectFault({
        match: { method: "POST", path: "/v1/objects" },
        kind: "latency",
        latencyMs: 100,
      });
      const [bigUp, smallUp] = await Promise.all([big.stack.up(), small.stack.up()]);
      await suite.emulator.admin.clearFaults();

      expect(bigUp.summary.result).toBe("succeeded");
      expect(bigUp.summary.resourceChanges).toEqual({ create: 1 + BIG.objects + BIG.snapshots + BIG.databases.length });
      expect(smallUp.summary.resourceChanges).toEqual({ create: 1 + 5 + 1 + 1 });
      expect(bigUp.outputs.objectIds.value).toHaveLength(BIG.objects);
      expect(bigUp.outputs.visits.value).toHaveLength(ANALYTICS_APPS.length * 2);

      const log = await suite.emulator.admin.requests();
      const uploads = logOf(log, "POST /v1/objects");
      console.log(
        `requests ${log.length}, uploads ${uploads.length} (statuses ${JSON.stringify(countBy(uploads.map((e) => e.status)))}), ` +
          `peak uploads in flight ${JSON.stringify(await suite.emulator.admin.peakUploadsInFlight())}`,
      );
      // Two provider processes each hold 4 upload slots, so together they can have 8 uploads on
      // the way while the server accepts 4 per account: the server refuses the others with 429
      // TOO_MANY_CONCURRENT_UPLOADS (it had not started them) and the client sends them again.
      // What is proven: every upload answer was an acceptance or that refusal, every object was
      // stored exactly once, and no resource failed (both ups succeeded above). The server's own
      // limit is its concern (tests/emulator/blob.test.ts); the peak only shows the uploads overlapped.
      const refused = uploads.filter((e) => e.status === 429);
      console.log(`uploads refused with 429 and sent again: ${refused.length}`);
      expect(uploads.filter((e) => e.status !== 200 && e.status !== 429)).toEqual([]);
      expect(uploads.filter((e) => e.status === 200)).toHaveLength(BIG.objects + 5);
      const peak = Object.values(await suite.emulator.admin.peakUploadsInFlight());
      expect(Math.max(...peak)).toBeGreaterThan(1);

      // Snapshots were paced by the client: the server, which refuses a second one within 5 s
      // (429 KEEP_CALM), took each at the first request.
      const snapshots = logOf(log, "POST /v2/apps/:id/snapshots");
      expect(snapshots.map((e) => e.status)).toEqual(SNAPSHOT_APPS.map(() => 200));

      // One analytics computation per app and range, none refused.
      const analytics = logOf(log, "GET /v2/apps/:id/network/analytics");
      expect(analytics.map((e) => e.status)).toEqual(ANALYTICS_APPS.flatMap(() => [200, 200]));
      expect(new Set(analytics.map((e) => e.path)).size).toBe(ANALYTICS_APPS.length);
    },
    HUNDRED_RESOURCES_MS,
  );

  test(
    "both destroys succeed at once and leave nothing behind",
    async () => {
      const [bigDown, smallDown] = await Promise.all([big.stack.destroy(), small.stack.destroy()]);
      expect(bigDown.summary.result).toBe("succeeded");
      expect(smallDown.summary.result).toBe("succeeded");
      await suite.emulator.admin.advanceClock(31_000);
      expect((await suite.api.listAllObjects()).filter((o) => /\/(many|other)\//.test(o.id))).toEqual([]);
      expect(
        (await suite.api.listDatabases()).filter((db) => ["manyone", "manytwo", "otherdb"].includes(db.name)),
      ).toEqual([]);
    },
    HUNDRED_RESOURCES_MS,
  );
});

function countBy(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
