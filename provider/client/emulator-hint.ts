import { emulatorArchiveName, EMULATOR_EXECUTABLE, hostTarget, releasePageUrl } from "../release-assets";
import { packageVersion } from "./version";

/**
 * How a user starts the local emulator, said when nothing listens at a local URL: a command that
 * works for the program's language. The dynamic provider runs for TypeScript and JavaScript
 * programs, whose project installed the npm package and with it the command; the native plugin
 * serves YAML, Python, Go and Java programs, whose users may have no Node.js and run the release's
 * archive for their machine. The plugin says which it is when it starts.
 */

let servingNativePlugin = false;

/** Called once by the native plugin at its start: from then on the hint names the release's archive. */
export function hintForNativePlugin(): void {
  servingNativePlugin = true;
}

export function emulatorSteps(): string {
  if (!servingNativePlugin)
    return `For the local emulator, start it first: npx ${EMULATOR_EXECUTABLE} in this project (it comes with pulumi-squarecloud)`;
  const version = packageVersion();
  return (
    `For the local emulator, start it first: ${EMULATOR_EXECUTABLE}, from ${emulatorArchiveName(version, hostTarget())} ` +
    `on ${releasePageUrl(version)} (unpack it anywhere; it needs nothing else)`
  );
}
