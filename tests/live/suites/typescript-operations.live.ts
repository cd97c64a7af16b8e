import { operationsLifecycle } from "../../e2e/lifecycles/operations";
import { openOperationsProgram } from "../../e2e/lifecycles/operations-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { operationsSkip, runnerSettings } from "../../../scripts/live/settings";

// The operations lifecycle of the TypeScript SDK (its dynamic provider) against the service: two
// snapshots of the first of SQUARECLOUD_LIVE_APPS, at least 5 s apart (two of the account's daily
// quota), and, with SQUARECLOUD_LIVE_MOVE_FILE, that file renamed with the run's prefix and back.

const skip = operationsSkip(runnerSettings());

if (skip) test.skip(`AppSnapshot and AppFileMove: ${skip}`, () => undefined);
else operationsLifecycle<LiveSuite>(openOperationsProgram, {}, liveSuite);
