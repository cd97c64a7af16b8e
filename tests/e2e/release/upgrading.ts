import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { sectionBlocks } from "../../doc-blocks";

// The "Upgrading" section of docs/installation-configuration.md as a user follows it: the commands
// of each language's `sh` block and the lines its `diff` block adds, read from the page itself, so
// what the rehearsal runs is what a reader copies.

const PAGE = "docs/installation-configuration.md";
const execFileAsync = promisify(execFile);

/** The blocks of the section under the `### ` heading that starts with `subheading`, in the language `language`. */
function blocksUnder(subheading: string, language: string): string[] {
  const found = sectionBlocks(PAGE, "Upgrading").filter(
    (block) => block.subheading?.startsWith(subheading) && block.language === language,
  );
  if (found.length === 0) throw new Error(`${PAGE}'s Upgrading has no ${language} block under "### ${subheading}"`);
  return found.map((block) => block.code);
}

/** The commands of the `sh` blocks under `subheading`, one a line. */
export function upgradeCommands(subheading: string): string[] {
  return blocksUnder(subheading, "sh").flatMap((code) => code.split("\n").filter((line) => line.trim() !== ""));
}

/** The lines the `diff` blocks under `subheading` add, without their `+`. */
export function addedLines(subheading: string): string[] {
  return blocksUnder(subheading, "diff").flatMap((code) =>
    code
      .split("\n")
      .filter((line) => line.startsWith("+"))
      .map((line) => line.slice(1)),
  );
}

/**
 * Runs the commands of `subheading`'s `sh` blocks in `cwd` with the user's environment, one after
 * another as a shell would, asynchronously (the plugin server answering a download is this process).
 */
export async function runUpgradeCommands(
  subheading: string,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<void> {
  for (const command of upgradeCommands(subheading)) await execFileAsync("sh", ["-c", command], { cwd, env });
}
