import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./install-script";

// The documentation as the tests read it: from the Markdown files themselves, so what a reader
// copies is what was tested. A fenced `ts` block is marked by the HTML comment on the line right
// above its fence:
//   <!-- program: <name> -->  a whole Pulumi program; blocks of one name in one file are joined
//   <!-- test: <name> -->     a whole jest test file
//   <!-- fragment -->         part of a program, not run
// Blocks of other languages (sh, bash, json, yaml, text) are shell snippets and files, not run.

export type BlockMarker = { kind: "program" | "test"; name: string } | { kind: "fragment" };

export interface FencedBlock {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The first word of the fence's info string; "" when there is none. */
  language: string;
  marker?: BlockMarker;
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
    blocks.push({ file, line: start + 1, language, marker: markerAbove(lines[start - 1]), code: code.map((line) => `${line}\n`).join("") });
  }
  return blocks;
}

function markerAbove(line: string | undefined): BlockMarker | undefined {
  const match = MARKER.exec(line?.trim() ?? "");
  if (!match) return undefined;
  return match[3] ? { kind: "fragment" } : { kind: match[1] as "program" | "test", name: match[2] };
}

/** The programs of a file by name, each the file's blocks of that name joined in order. */
export function programs(file: string): Map<string, string> {
  const joined = new Map<string, string>();
  for (const block of fencedBlocks(file)) {
    if (block.marker?.kind !== "program") continue;
    joined.set(block.marker.name, (joined.get(block.marker.name) ?? "") + block.code);
  }
  return joined;
}

/** The program of that name in a file. */
export function program(file: string, name: string): string {
  const code = programs(file).get(name);
  if (code === undefined) throw new Error(`${file} has no <!-- program: ${name} --> block`);
  return code;
}

/** The text of a file's `## <heading>` section, up to the next `## `. */
export function section(file: string, heading: string): string {
  const text = readDoc(file);
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "## ${heading}" section`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/**
 * The files a section gives, each as a paragraph starting with its file name in backticks and
 * ending with ":", then its fenced block; name -> content.
 */
export function sectionFiles(file: string, heading: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, name, content] of section(file, heading).matchAll(/^`([\w-]+\.[\w.]+)`(?:[^\n]|\n(?!\n))*:\n\n```\w*\n([\s\S]*?)^```/gm)) {
    files[name] = content;
  }
  return files;
}
