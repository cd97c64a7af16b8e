import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../install-script";

// Scripts and workflows that run chosen test files name their compiled paths; a test file moved
// or renamed leaves such a name pointing at nothing, and the command then fails only when run.

const COMPILED_TEST = /dist\/(tests\/[\w./-]+)\.test\.js/g;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    return statSync(path.join(repoRoot, relative)).isDirectory() ? filesUnder(relative) : [relative];
  });
}

const namers = ["package.json", ...filesUnder("scripts"), ...filesUnder(".github"), ...filesUnder(".ci")];

test("every compiled test file a script or workflow names has its source under tests/", () => {
  const missing: string[] = [];
  let named = 0;
  for (const file of namers) {
    for (const [, source] of readFileSync(path.join(repoRoot, file), "utf8").matchAll(COMPILED_TEST)) {
      named++;
      const sources = [`${source}.test.ts`, `${source}.test.js`];
      if (!sources.some((s) => statSync(path.join(repoRoot, s), { throwIfNoEntry: false }))) {
        missing.push(`${file}: ${source}`);
      }
    }
  }
  expect(missing).toEqual([]);
  // scripts/test-compat names three: the scan reads the files it is meant to.
  expect(named).toBeGreaterThanOrEqual(3);
});
