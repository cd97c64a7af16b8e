import { dataSourceReads } from "../../e2e/lifecycles/data-source-reads";
import { openTypeScriptReads } from "../../e2e/lifecycles/data-source-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// Every data source read by a TypeScript program (the SDK reads them in the program itself),
// compared with the API's answers right after. It makes, through the API, a workspace and one blob
// object of 1 KiB, both named with the run's prefix and deleted at its end; the application
// (the first of SQUARECLOUD_LIVE_APPS) and database (SQUARECLOUD_LIVE_DATABASE) it reads are only
// read, and their reads are skipped without them.

dataSourceReads<LiveSuite>(openTypeScriptReads, `${runnerSettings().runPrefix}readts`, liveSuite);
