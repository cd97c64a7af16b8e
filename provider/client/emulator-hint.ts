import { emulatorArchiveName, EMULATOR_EXECUTABLE, hostTarget, releasePageUrl } from "../release-assets";
import { packageVersion } from "./version";

/**
 * How to start the emulator when nothing listens at a local URL: npx for TypeScript programs, the
 * release's archive for the native plugin's users, who may have no Node.js.
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
