import { dataSourceReads } from "../../e2e/lifecycles/data-source-reads";
import { openYamlReads } from "../../e2e/lifecycles/data-source-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// Every data source invoked from a Pulumi YAML program (the native plugin), compared with the
// API's answers right after: the same reads, and what they make and delete, as
// typescript-data-sources.live.ts.

dataSourceReads<LiveSuite>(openYamlReads("live-yaml-reads"), `${runnerSettings().runPrefix}readyaml`, liveSuite);
