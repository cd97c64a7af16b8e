import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./install-script";

// The documentation as the tests read it: from the Markdown files themselves, so what a reader
// copies is what was tested. A fenced `ts` or `yaml` block is marked by the HTML comment on the
// line right above its fence (a `python` block too):
//   <!-- program: <name> -->  a whole Pulumi program, TypeScript, Pulumi YAML or Python; blocks of one
//                             name and language in one file are joined
//   <!-- test: <name> -->     a whole jest test file
//   <!-- fragment -->         part of a program, not run
// or, unmarked, is a file of a project that the paragraph above names ("`Pulumi.yaml`:").
// Blocks of other languages (sh, bash, json, text) are shell snippets and files, not run.

export type BlockMarker = { kind: "program" | "test"; name: string } | { kind: "fragment" };

export interface FencedBlock {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The first word of the fence's info string; "" when there is none. */
  language: string;
  marker?: BlockMarker;
  /** The file of a project the block gives, when the paragraph right above names it ("`Pulumi.yaml`:"). */
  projectFile?: string;
  /** The block's text, without the fences and without the indentation of a fence inside a list. */
  code: string;
}

/** README.md and every page under docs/, repository-relative; the generated API reference (docs/api/) is not documentation we write. */
export function docFiles(): string[] {
  const pages = (dir: string): string[] =>
    readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return relative === "docs/api" ? [] : pages(relative);
      return entry.name.endsWith(".md") ? [relative] : [];
    });
  return ["README.md", ...pages("docs").sort()];
}

export function readDoc(file: string): string {
  return readFileSync(path.join(repoRoot, file), "utf8");
}

const MARKER = /^<!-- (?:(program|test): ([\w-]+)|(fragment)) -->$/;
const OPENING_FENCE = /^(\s*)```(\S*)/;
const CLOSING_FENCE = /^\s*```\s*$/;

export function fencedBlocks(file: string): FencedBlock[] {
  const lines = readDoc(file).split("\n");
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opening = OPENING_FENCE.exec(lines[i]);
    if (!opening) continue;
    const [, indent, language] = opening;
    const start = i;
    const code: string[] = [];
    for (i++; i < lines.length && !CLOSING_FENCE.test(lines[i]); i++) code.push(lines[i].slice(indent.length));
    if (i === lines.length) throw new Error(`${file}:${start + 1}: a code block is never closed`);
    blocks.push({
      file,
      line: start + 1,
      language,
      marker: markerAbove(lines[start - 1]),
      projectFile: projectFileAbove(lines, start),
      code: code.map((line) => `${line}\n`).join(""),
    });
  }
  return blocks;
}

function markerAbove(line: string | undefined): BlockMarker | undefined {
  const match = MARKER.exec(line?.trim() ?? "");
  if (!match) return undefined;
  return match[3] ? { kind: "fragment" } : { kind: match[1] as "program" | "test", name: match[2] };
}

/** The file name that opens the paragraph ending on the line above the block's blank line: "`Pulumi.yaml`:" or "`package.json` (no `main`...):". */
function projectFileAbove(lines: string[], fence: number): string | undefined {
  if (fence < 2 || lines[fence - 1].trim() !== "" || !lines[fence - 2].trimEnd().endsWith(":")) return undefined;
  let first = fence - 2;
  while (first > 0 && lines[first - 1].trim() !== "") first--;
  return PROJECT_FILE.exec(lines[first])?.[1];
}

const PROJECT_FILE = /^`([\w-]+\.[\w.]+)`/;

/** A whole program of a page: the page's blocks of one name and language, joined in order. */
export interface DocProgram {
  file: string;
  name: string;
  /** The fence's language: "ts", "yaml" or "python". */
  language: string;
  code: string;
}

/** The programs of a file, in the order their first blocks appear. */
export function programs(file: string): DocProgram[] {
  const joined = new Map<string, DocProgram>();
  for (const block of fencedBlocks(file)) {
    if (block.marker?.kind !== "program") continue;
    const key = `${block.marker.name} ${block.language}`;
    const found = joined.get(key) ?? { file, name: block.marker.name, language: block.language, code: "" };
    joined.set(key, { ...found, code: found.code + block.code });
  }
  return [...joined.values()];
}

/** The TypeScript program of that name in a file. */
export function program(file: string, name: string): string {
  const found = programs(file).find((candidate) => candidate.name === name && candidate.language === "ts");
  if (found === undefined) throw new Error(`${file} has no <!-- program: ${name} --> ts block`);
  return found.code;
}

/** The text of a file's `## <heading>` section, up to the next `## `. */
export function section(file: string, heading: string): string {
  const { first, end } = sectionLines(file, heading);
  return readDoc(file).split("\n").slice(first, end).join("\n");
}

/** The 0-based line of a section's heading and the line after its last. */
function sectionLines(file: string, heading: string): { first: number; end: number } {
  const lines = readDoc(file).split("\n");
  const first = lines.indexOf(`## ${heading}`);
  if (first < 0) throw new Error(`${file} has no "## ${heading}" section`);
  const next = lines.findIndex((line, i) => i > first && line.startsWith("## "));
  return { first, end: next < 0 ? lines.length : next };
}

/** The fenced blocks of a file's `## <heading>` section, each with the `### ` heading it sits under, if any. */
export function sectionBlocks(file: string, heading: string): (FencedBlock & { subheading?: string })[] {
  const { first, end } = sectionLines(file, heading);
  const lines = readDoc(file).split("\n");
  return fencedBlocks(file)
    .filter((block) => block.line > first && block.line <= end)
    .map((block) => {
      const above = lines
        .slice(first, block.line - 1)
        .reverse()
        .find((line) => line.startsWith("### "));
      return { ...block, subheading: above?.slice("### ".length) };
    });
}

/** The project files a section gives (see projectFile), name -> content. */
export function sectionFiles(file: string, heading: string): Record<string, string> {
  const inSection = sectionBlocks(file, heading).filter((block) => block.projectFile !== undefined);
  return Object.fromEntries(inSection.map((block) => [block.projectFile, block.code]));
}
