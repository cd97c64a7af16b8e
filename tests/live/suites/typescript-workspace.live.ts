import { workspaceLifecycle } from "../../e2e/lifecycles/workspace";
import { openTeamProgram } from "../../e2e/lifecycles/workspace-programs";
import { type LiveSuite, liveSuite } from "../live-suite";
import { membershipSkip, runnerSettings } from "../../../scripts/live/settings";

// The team lifecycle of the TypeScript SDK (its dynamic provider) against the service: a workspace
// linking three of the owner's applications (SQUARECLOUD_LIVE_APPS; links only, no file changes)
// and the second account (SQUARECLOUD_LIVE_INVITEE_KEY) as its member, renamed once, then deleted.

const settings = runnerSettings();
const skip = membershipSkip(settings);

if (skip) test.skip(`Workspace and WorkspaceMember: ${skip}`, () => undefined);
else workspaceLifecycle<LiveSuite>(`${settings.runPrefix}ts`, openTeamProgram, {}, liveSuite);
