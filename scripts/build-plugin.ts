import { archiveName } from "./plugin-archive";
import { PLUGIN_EXECUTABLE } from "../provider/release-assets";
import { pluginFiles } from "./plugin-bundle";
import { buildArchivesCommand } from "./build-archives";

/**
 * `npm run build:plugin [-- [<dir>] [--target <os>-<arch>]...]`: the plugin archives the engine
 * downloads, pulumi-resource-squarecloud-v<version>-<os>-<arch>.tar.gz, into dist/plugin/ (or the
 * directory given), with SHA256SUMS for a whole set (scripts/build-archives.ts).
 */
buildArchivesCommand({
  entry: "dist/provider/plugin/main.js",
  files: pluginFiles,
  executable: PLUGIN_EXECUTABLE,
  archiveName,
  defaultOut: "dist/plugin",
});
