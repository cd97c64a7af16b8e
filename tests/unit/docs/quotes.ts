import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { readDoc, section } from "../../doc-blocks";
import { repoRoot } from "../../install-script";

// The messages the documentation quotes, and whether the code makes them. A quote is a code span
// in the first column of a table (docs/troubleshooting.md, a resource page's "Failure modes"); it
// may leave parts out with "…" and name varying parts with placeholders such as <name>. What it is
// compared with is a message as a pattern: a message made by the code in a test (no open parts),
// or a message template of the source, whose interpolations are open parts. A quote agrees with a
// pattern when some message fits both; the share of the quote's own text that the pattern's fixed
// text accounts for tells a real template from one so general (`${a}: ${b}`) that anything fits.

/** Fixed characters as char codes, and OPEN for a part left open (any text, the empty one too). */
export type Pattern = number[];
const OPEN = -1;

/** Spans shorter than this, without their open parts, or without a space, are names or punctuation around a quote. */
const MIN_QUOTE = 20;
/** How much of a quote's fixed text a template must fix itself for the quote to count as its message. */
const MIN_AGREEMENT = 0.7;
/**
 * What the engine or the provider's warning sink writes around a message: the prefix of every
 * warning (provider/channels.ts), and the engine's wording of a check failure
 * ("… resource 'video': property source value {…} has a problem: <the reason>").
 */
const AROUND = /^(?:warning: |.*has a problem: )/;

function fixed(text: string): Pattern {
  return [...text].map((char) => char.charCodeAt(0));
}

/** Consecutive open parts are one. */
function joined(parts: Pattern): Pattern {
  return parts.filter((code, i) => !(code === OPEN && parts[i - 1] === OPEN));
}

/** The quotes of the first column of a file's tables: of one `## ` section when heading is given. */
export function tableQuotes(file: string, heading?: string): string[] {
  const text = heading === undefined ? readDoc(file) : section(file, heading);
  return (
    text
      .split("\n")
      .filter((line) => line.startsWith("| "))
      // A span opened by n backticks closes at the next n, so that it may hold single ones.
      .flatMap((line) => [...line.split(" | ")[0].matchAll(/(`+) ?(.+?) ?\1(?!`)/g)].map((match) => match[2]))
      .filter((quote) => quote.includes(" ") && fixedLength(quotePattern(quote)) >= MIN_QUOTE)
  );
}

/** A quote as a pattern: "…" and <placeholders> open, and open at both ends (it may be part of a longer message). */
export function quotePattern(quote: string): Pattern {
  const parts = quote.replace(AROUND, "").split(/(…|<[\w ]+>)/);
  return joined([OPEN, ...parts.flatMap((part, i) => (i % 2 === 1 ? [OPEN] : fixed(part))), OPEN]);
}

/** A message the code made, as a pattern with no open parts. */
export function messagePattern(message: string): Pattern {
  return fixed(message);
}

function fixedLength(pattern: Pattern): number {
  return pattern.filter((code) => code !== OPEN).length;
}

/**
 * The share (0 to 1) of the quote's fixed characters that stand against fixed characters of the
 * candidate in a message fitting both, at best; 0 when no message fits both.
 */
export function agreement(quote: Pattern, candidate: Pattern): number {
  const rows = quote.length + 1;
  const cols = candidate.length + 1;
  const IMPOSSIBLE = -1;
  // best[i][j]: the most fixed characters matched between quote[i..] and candidate[j..].
  const best = new Int32Array(rows * cols).fill(IMPOSSIBLE);
  best[rows * cols - 1] = 0;
  for (let i = quote.length; i >= 0; i--) {
    for (let j = candidate.length; j >= 0; j--) {
      if (i === quote.length && j === candidate.length) continue;
      const at = (a: number, b: number) => best[a * cols + b];
      let found = IMPOSSIBLE;
      // An open part of either side takes the other side's next character, or ends.
      if (i < quote.length && quote[i] === OPEN)
        found = Math.max(at(i + 1, j), j < candidate.length ? at(i, j + 1) : IMPOSSIBLE);
      else if (j < candidate.length && candidate[j] === OPEN)
        found = Math.max(at(i, j + 1), i < quote.length ? at(i + 1, j) : IMPOSSIBLE);
      else if (i < quote.length && j < candidate.length && quote[i] === candidate[j] && at(i + 1, j + 1) !== IMPOSSIBLE)
        found = at(i + 1, j + 1) + 1;
      best[i * cols + j] = found;
    }
  }
  return Math.max(best[0], 0) / fixedLength(quote);
}

/** Whether the quote is a message the code makes: a made message (agreeing in full) or a source template. */
export function isMadeBy(quote: string, made: Pattern[], templates: Pattern[]): boolean {
  const pattern = quotePattern(quote);
  return (
    made.some((message) => agreement(pattern, message) === 1) ||
    templates.some((template) => agreement(pattern, template) >= MIN_AGREEMENT)
  );
}

/** Whether a message the code made is quoted in one of these quotes. */
export function isQuoted(message: string, quotes: string[]): boolean {
  return quotes.some((quote) => agreement(quotePattern(quote), messagePattern(message)) === 1);
}

/** The message templates of the source (provider/ and sdk/): every string expression, `+` chains as one. */
export function sourceTemplates(): Pattern[] {
  return ["provider", "sdk/nodejs"].flatMap((dir) => sourceFiles(path.join(repoRoot, dir))).flatMap(templatesOf);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith(".ts") ? [file] : [];
  });
}

function isConcatenation(node: ts.Node | undefined): node is ts.BinaryExpression {
  return node !== undefined && ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken;
}

function templatesOf(file: string): Pattern[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Pattern[] = [];
  const visit = (node: ts.Node): void => {
    const pattern = isConcatenation(node.parent) ? undefined : patternOf(node);
    if (pattern?.some((code) => code !== OPEN)) found.push(joined(pattern));
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A string expression as a pattern: its interpolations, and operands of `+` that are no strings, open. */
function patternOf(node: ts.Node): Pattern | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return fixed(node.text);
  if (ts.isTemplateExpression(node))
    return [...fixed(node.head.text), ...node.templateSpans.flatMap((span) => [OPEN, ...fixed(span.literal.text)])];
  if (ts.isParenthesizedExpression(node)) return patternOf(node.expression);
  if (isConcatenation(node)) {
    const [left, right] = [patternOf(node.left), patternOf(node.right)];
    if (left === undefined && right === undefined) return undefined;
    return [...(left ?? [OPEN]), ...(right ?? [OPEN])];
  }
  return undefined;
}
