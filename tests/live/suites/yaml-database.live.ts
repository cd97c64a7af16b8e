import { databaseLifecycle } from "../../e2e/lifecycles/database";
import { openYamlDatabase } from "../../e2e/lifecycles/database-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { runnerSettings } from "../../../scripts/live/settings";

// The Database lifecycle of a Pulumi YAML program (the native plugin) against the service.

const name = `${runnerSettings().runPrefix}yaml`;

databaseLifecycle<LiveSuite>(name, openYamlDatabase("live-yaml-database", name), {}, liveSuite);
