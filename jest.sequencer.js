// The order jest starts test files in. With two workers the run ends when the file started last
// ends, so the longest start first: failures of the last run first, then by the time each file
// took last (jest's record), else by the time it took when measured here (`MEASURED`, for a
// machine without a record, as CI's), else end-to-end files (each a minute or more) before the others.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/**
 * Seconds each of the longest files took, measured in a whole run from a fresh clone on 2 cores (2026-11-28, load 2 to 6);
 * only the order matters, so a figure needs updating when a file moves a place or more.
 */
const MEASURED = {
  // With the upgrade from the previous release (2026-11-28): 594 s alone at load 10 to 14, this
  // commit's release built in it; about 330 s estimated in a whole run, where that build is shared.
  "e2e/release/rehearsal.test.js": 330,
  // Ten live suites, two at a time, then the sweeper's tests: beside other end-to-end files, load 6 to 11
  // (with eight); with the two data-source files, 306 s alone at load 2.
  "live/against-emulator.test.js": 313,
  "e2e/docs-programs.test.js": 161,
  "e2e/safety/bad-input.test.js": 132,
  "e2e/typescript/examples.test.js": 129,
  "e2e/release/templates.test.js": 127,
  "e2e/release/upgrade.test.js": 104, // measured alone, warm
  "e2e/reliability/faults.test.js": 102,
  "e2e/typescript/workspace.test.js": 92,
  "e2e/first-hour.test.js": 84,
  "e2e/typescript/database.test.js": 84,
  "e2e/typescript/blob-folder.test.js": 83,
  "e2e/release/artifacts.test.js": 72,
  "e2e/built-artifacts.test.js": 66,
  "e2e/typescript/readme.test.js": 62,
  "e2e/typescript/blob-object.test.js": 61,
  "e2e/typescript/package.test.js": 58,
  "e2e/typescript/operations.test.js": 53,
  "e2e/reliability/parallel-stacks.test.js": 55,
  "e2e/reliability/interrupted.test.js": 45,
  "e2e/typescript/credentials.test.js": 31,
  "e2e/python/example-outside.test.js": 24,
  "e2e/yaml/windows-plugin.test.js": 22, // the file alone, at load 17 to 19
  "e2e/safety/concurrency.test.js": 23,
  "e2e/python/blob-folder.test.js": 23,
  // Measured alone: it type-checks a copy of provider/ and emulator/.
  "unit/kinds/add-a-field.test.js": 27,
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
