/** A release's files, named once for the messages that send a user to them and the builds that make them. */

/** The project's home on GitHub: its sources, issues and releases. */
export const GITHUB_REPOSITORY = "squarecloud/pulumi-squarecloud";

export const REPOSITORY_URL = `https://github.com/${GITHUB_REPOSITORY}`;

/** The page of a release: its notes and every file it publishes. */
export function releasePageUrl(version: string): string {
  return `${REPOSITORY_URL}/releases/tag/v${version}`;
}

/** The engine's name for the machine this runs on, e.g. linux-amd64. */
export function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${os}-${arch}`;
}

/** The plugin's command: the name the engine looks for in a plugin's directory (on Windows with `.exe`, then `.cmd`). */
export const PLUGIN_EXECUTABLE = "pulumi-resource-squarecloud";

/** The emulator's command, in its archive and in the npm package. */
export const EMULATOR_EXECUTABLE = "squarecloud-emulator";

/** A release's archive of a command for one machine, with the Node.js it runs on: the engine asks for the plugin's by this name. */
export function releaseArchiveName(executable: string, version: string, target: string): string {
  return `${executable}-v${version}-${target}.tar.gz`;
}

/** A release's emulator for one machine, for users without Node. */
export function emulatorArchiveName(version: string, target: string): string {
  return releaseArchiveName(EMULATOR_EXECUTABLE, version, target);
}
