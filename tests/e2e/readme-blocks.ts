import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./engine";

// README.md's code as the tests run it: read from the file itself, so what a reader copies is
// what was tested.

/** The text of README's `## <heading>` section, up to the next `## `. */
function section(heading: string): string {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block of that language in README's section. */
export function readmeBlock(heading: string, language: string): string {
  const block = new RegExp("^```" + language + "\\n([\\s\\S]*?)^```", "m").exec(section(heading));
  if (!block) throw new Error(`README.md's "${heading}" section has no ${language} block`);
  return block[1];
}

/**
 * The files README's section gives, each as a paragraph starting with its file name in backticks and
 * ending with ":", then its fenced block; name -> content.
 */
export function readmeFiles(heading: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, name, content] of section(heading).matchAll(/^`([\w-]+\.[\w.]+)`(?:[^\n]|\n(?!\n))*:\n\n```\w*\n([\s\S]*?)^```/gm)) {
    files[name] = content;
  }
  return files;
}
