import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  allAtOnce,
  type Fleet,
  fleetDiscrepancies,
  openFleet,
  refusalsByRoute,
  type StackOutcome,
} from "./account-fleet";

// Three stacks of one account, in TypeScript, YAML and Python, through up, a change and destroy
// at the same time, against an emulator that enforces the account's limits across them (one app
// snapshot per 5 s, 4 uploads in flight, and a request rate of its own, 20 per second): each
// provider process paces itself, and what it meets from the others (429 KEEP_CALM,
// TOO_MANY_CONCURRENT_UPLOADS, RATE_LIMIT_EXCEEDED) it must wait out, never fail on. The bench
// (bench/parallel-stacks.ts) runs eight and more at 50 ms of latency and prints the timings.

jest.setTimeout(600_000);

let emulator: RunningEmulator;
let fleet: Fleet;

beforeAll(async () => {
  emulator = await startEmulator({ admin: true, requestRate: { requests: 20, windowMs: 1_000 } });
  fleet = await openFleet(emulator, {
    languages: ["typescript", "yaml", "python"],
    objects: 3,
    folderFiles: 12,
    changedObjects: 1,
    changedFiles: 3,
  });
});

afterAll(async () => {
  await fleet?.dispose();
  await emulator?.close();
});

/** The stacks whose command failed, with their errors: [] when every stack's command succeeded. */
const failures = (outcomes: StackOutcome[]) => outcomes.filter((o) => !o.ok);

test("every stack converges on its first up, the change and destroy, with nothing duplicated and nothing left", async () => {
  await emulator.admin.clearRequests();
  expect(failures(await allAtOnce(fleet, (s) => s.program.stack.up()))).toEqual([]);
  expect(await fleetDiscrepancies(emulator, fleet)).toEqual({ unrecorded: [], missing: [] });
  // Converged: nothing left to do for any stack.
  expect(failures(await allAtOnce(fleet, (s) => s.program.stack.preview({ expectNoChanges: true })))).toEqual([]);

  for (const stack of fleet.stacks) await stack.declare(2);
  expect(failures(await allAtOnce(fleet, (s) => s.program.stack.up()))).toEqual([]);
  expect(await fleetDiscrepancies(emulator, fleet)).toEqual({ unrecorded: [], missing: [] });

  expect(failures(await allAtOnce(fleet, (s) => s.program.stack.destroy()))).toEqual([]);
  expect(await fleetDiscrepancies(emulator, fleet)).toEqual({ unrecorded: [], missing: [] });
  // Every refusal met was waited out: none ended a command (above). Shown for whoever reads the log.
  process.stdout.write(`429s answered, by route: ${JSON.stringify(await refusalsByRoute(emulator))}\n`);
});
