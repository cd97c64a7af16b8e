// The order jest starts test files in. With two workers the run ends when the file started last
// ends, so the longest start first: failures of the last run first, then by the time each file
// took last (jest's record), else by the time it took when measured here (`MEASURED`, for a
// machine without a record, as CI's), else end-to-end files (each a minute or more) before the others.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/**
 * Seconds each file of 7 s or more took in a whole cold run from a fresh clone on 2 cores (main
 * f941c6e, 2026-11-28, quiet machine, load 4 to 5); files under it are unit files, which start last
 * (a unit file of 10 s left for the end lengthens the run's tail by that much, hence those here).
 * Only the order matters, so a figure needs updating when a file moves a place or more.
 */
const MEASURED = {
  // Eight live suites then; ten since, with the two data-source files (306 s alone at load 2).
  "live/against-emulator.test.js": 384,
  "e2e/release/rehearsal.test.js": 364,
  "e2e/docs-programs.test.js": 223,
  "e2e/safety/bad-input.test.js": 221,
  "e2e/typescript/examples.test.js": 146,
  "e2e/typescript/database.test.js": 123,
  "e2e/release/templates.test.js": 121,
  "e2e/reliability/faults.test.js": 94,
  "e2e/typescript/workspace.test.js": 93,
  "e2e/release/artifacts.test.js": 80,
  "e2e/built-artifacts.test.js": 76,
  "e2e/first-hour.test.js": 73,
  "e2e/typescript/blob-object.test.js": 65,
  "e2e/typescript/blob-folder.test.js": 64,
  "e2e/typescript/operations.test.js": 55,
  "e2e/release/upgrade.test.js": 55,
  "e2e/reliability/parallel-stacks.test.js": 48,
  "e2e/typescript/readme.test.js": 40,
  "e2e/typescript/credentials.test.js": 37,
  "e2e/reliability/interrupted.test.js": 32,
  "e2e/typescript/package.test.js": 28,
  "e2e/go/database.test.js": 25,
  "e2e/safety/concurrency.test.js": 23,
  "e2e/typescript/synced-folder.test.js": 22,
  "e2e/python/workspace.test.js": 21,
  "e2e/python/blob-folder.test.js": 21,
  "e2e/typescript/state-d77ae88.test.js": 20,
  "e2e/python/example-outside.test.js": 18,
  "e2e/java/program.test.js": 18,
  "e2e/python/floor.test.js": 16,
  "e2e/safety/portability.test.js": 16,
  "unit/sdk/go.test.js": 15,
  "e2e/python/blob-object.test.js": 13,
  "e2e/reliability/lost-answers.test.js": 13,
  "e2e/yaml/synced-folder.test.js": 13,
  "e2e/reliability/key-rotation.test.js": 13,
  "e2e/typescript/smoke.test.js": 13,
  "e2e/python/database.test.js": 13,
  "e2e/yaml/blob-folder.test.js": 12,
  "e2e/yaml/workspace.test.js": 11,
  "unit/plugin/archives.test.js": 11,
  "unit/functions/analytics-bounds.test.js": 10,
  "e2e/typescript/data-sources.test.js": 10,
  "e2e/yaml/blob-object.test.js": 10,
  "e2e/python/operations.test.js": 9,
  "unit/docs/quoted-messages.test.js": 8,
  "e2e/messages.test.js": 8,
  "e2e/yaml/import.test.js": 8,
  "e2e/plugin-download.test.js": 8,
  "unit/kinds/add-a-field.test.js": 7,
  "e2e/yaml/database.test.js": 7,
};
/** What a file without a record or a figure is taken to last: an end-to-end file drives the engine. */
const UNMEASURED_E2E_MS = 20_000;
const UNMEASURED_MS = 1_000;

const testsRoot = path.join(__dirname, "dist", "tests");

class LongestFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const expected = (test) => {
      if (test.duration != null) return test.duration;
      const relative = path.relative(testsRoot, test.path).split(path.sep).join("/");
      if (relative in MEASURED) return MEASURED[relative] * 1000;
      return relative.startsWith("e2e/") ? UNMEASURED_E2E_MS : UNMEASURED_MS;
    };
    const failed = (test) => (this.hasFailed(test) ? 0 : 1);
    // Array.prototype.sort is stable: equal files keep jest's order.
    return ordered.sort((a, b) => failed(a) - failed(b) || expected(b) - expected(a));
  }
}

module.exports = LongestFirst;
