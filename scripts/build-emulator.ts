import { EMULATOR_EXECUTABLE, emulatorArchiveName } from "../provider/release-assets";
import { buildArchivesCommand } from "./build-archives";
import { mainBundle } from "./plugin-bundle";

/**
 * `npm run build:emulator [-- [<dir>] [--target <os>-<arch>]...]`: the emulator for users without
 * Node, squarecloud-emulator-v<version>-<os>-<arch>.tar.gz, each archive holding the same Node
 * builds as the plugin's and a `squarecloud-emulator` launcher (`.cmd` on Windows), into
 * dist/emulator-archives/ (or the directory given), with SHA256SUMS for a whole set
 * (scripts/build-archives.ts).
 */
buildArchivesCommand({
  entry: "dist/emulator/cli.js",
  files: mainBundle,
  executable: EMULATOR_EXECUTABLE,
  archiveName: emulatorArchiveName,
  defaultOut: "dist/emulator-archives",
});
