import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../install-script";

// What the code, tests and docs cite must be there for a reader of the repository: the API's rules
// and limits in the project's own words (docs/service-limits.md, emulator/README.md), never the
// contract files the project was first written from, which live outside it.

const OUTSIDE_CITATION = /api-spec\.md|real-api-notes\.md|shared\/spec\/|\.\.\/shared\/|\bspec (?:section|rule) \d/i;

test("no file of the repository cites a contract file outside it", () => {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter((file) => /\.(ts|js|md|json|ya?ml|py|go|java|sh)$/.test(file) && file !== "package-lock.json");
  const citing = files.flatMap((file) =>
    readFileSync(path.join(repoRoot, file), "utf8")
      .split("\n")
      .flatMap((line, index) => (OUTSIDE_CITATION.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
  expect(citing).toEqual([]);
});
