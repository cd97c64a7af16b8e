import { readFileSync } from "node:fs";
import * as path from "node:path";
import { kinds } from "../../../provider/kinds";
import { repoRoot } from "../../install-script";

// docs/README.md's resource table says, per kind, what a change of each input does ("a change of"
// column). The kinds' declarations decide it (replaceOn, updateOn); the column keeps its own words
// ("replaces, with every member", "takes a new one"), so this holds each word to the declaration.

/** Words of the column that stand for inputs without naming them. */
const CATCH_ALL = /\b(anything|an option|a file)\b/;

/** Each kind's "a change of" cell, by the kind's name in its row's link text. */
function changeCells(): Map<string, string> {
  const readme = readFileSync(path.join(repoRoot, "docs", "README.md"), "utf8");
  const cells = new Map<string, string>();
  for (const [, name, cell] of readme.matchAll(/^\| \[(\w+)\]\(resources\/[\w-]+\.md\) \|[^|]*\| ([^|]*) \|$/gm)) {
    cells.set(name, cell.trim());
  }
  return cells;
}

/** The inputs each clause ("`a`, `b`: in place") names, split by what it says their change does. */
function claims(cell: string): { inPlace: string[]; replace: string[] } {
  const result = { inPlace: [] as string[], replace: [] as string[] };
  for (const clause of cell.split("; ")) {
    const colon = clause.indexOf(":");
    const names = [...clause.slice(0, colon).matchAll(/`(\w+)`/g)].map(([, name]) => name);
    const effect = clause.slice(colon + 1).trim();
    (effect.startsWith("in place") ? result.inPlace : result.replace).push(...names);
  }
  return result;
}

const cells = changeCells();

test.each(kinds.map((kind) => [kind.name, kind] as const))(
  "docs/README.md says what a change of each %s input does, as its declaration decides",
  (name, kind) => {
    const cell = cells.get(name);
    expect(cell).toBeDefined();
    const { inPlace, replace } = claims(cell as string);
    expect({ inPlace: inPlace.filter((n) => !(kind.updateOn as readonly string[]).includes(n)) }).toEqual({
      inPlace: [],
    });
    expect({ replace: replace.filter((n) => !(kind.replaceOn as readonly string[]).includes(n)) }).toEqual({
      replace: [],
    });
    if (!CATCH_ALL.test(cell as string)) {
      expect([...inPlace].sort()).toEqual([...kind.updateOn].sort());
      expect([...replace].sort()).toEqual([...kind.replaceOn].sort());
    }
  },
);
