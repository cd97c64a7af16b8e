import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkBreakingChanges, describe, lastRelease, recordRelease } from "./release/recorded";
import type { PackageSchema } from "./release/schema-compare";

/**
 * `npm run schema:compare`: every difference between the schema (provider/plugin/schema.json, as
 * `npm run gen` writes it) and the last release's (tests/fixtures/releases/<version>/schema.json),
 * each classed breaking, minor or patch by docs/release.md's rules, then the least version the
 * next release may take and what the version and the changelog still lack; fails when they lack
 * something. `npm run schema:compare -- --record <version> <commit>` records a release: its
 * schema as the commit holds it and the commit (docs/release.md's last step of a cut).
 */

const root = path.join(__dirname, "..", "..");

function main(argv: string[]): number {
  if (argv[0] === "--record") {
    const [version, commit] = argv.slice(1);
    if (!version || !commit) throw new Error("usage: npm run schema:compare -- --record <version> <commit>");
    console.log(`recorded ${version} (${commit}) in ${path.relative(root, recordRelease(root, version, commit))}`);
    return 0;
  }
  if (argv.length > 0) throw new Error("usage: npm run schema:compare [-- --record <version> <commit>]");
  const read = (file: string) => readFileSync(path.join(root, file), "utf8");
  const check = checkBreakingChanges(
    lastRelease(root),
    JSON.parse(read("provider/plugin/schema.json")) as PackageSchema,
    (JSON.parse(read("package.json")) as { version: string }).version,
    read("CHANGELOG.md"),
  );
  console.log(`the schema against ${check.last}'s: ${check.differences.length} differences`);
  for (const difference of check.differences) console.log(`  ${difference.level.padEnd(8)}  ${describe(difference)}`);
  console.log(`the next release: ${check.next} or later (package.json says ${check.version})`);
  for (const problem of check.problems) console.log(`problem: ${problem}`);
  return check.problems.length > 0 ? 1 : 0;
}

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(`schema:compare: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
