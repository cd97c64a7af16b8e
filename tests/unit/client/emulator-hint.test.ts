import { emulatorSteps, hintForNativePlugin } from "../../../provider/client/emulator-hint";
import { packageVersion } from "../../../provider/client/version";
import { hostTarget } from "../../../provider/release-assets";

// The command the down-hint names must work for the program's language: a TypeScript project has
// the npm package's command; YAML, Python, Go and Java users (the native plugin) get the release's
// archive for their machine, which needs no Node. Each test file has its own module state, so the
// plugin's switch stays in this file.

test("the dynamic provider names the package's command, run in the project", () => {
  expect(emulatorSteps()).toBe(
    "For the local emulator, start it first: npx squarecloud-emulator in this project (it comes with pulumi-squarecloud)",
  );
});

test("the native plugin names the release's archive for this machine and the page it is on", () => {
  hintForNativePlugin();
  expect(emulatorSteps()).toBe(
    `For the local emulator, start it first: squarecloud-emulator, from squarecloud-emulator-v${packageVersion()}-${hostTarget()}.tar.gz ` +
      `on https://github.com/squarecloud/pulumi-squarecloud/releases/tag/v${packageVersion()} (unpack it anywhere; it needs nothing else)`,
  );
});
