// The order jest starts test files in. With two workers the run ends when the file started last
// ends, so the longest start first: jest's own order (the last run's failures, then files it has
// no time for, biggest first, then by the time each took last) with one change: among files it has
// no time for (every file on a fresh machine) the end-to-end ones, each minutes long, go first.
const Sequencer = require("@jest/test-sequencer").default;

const endToEnd = `${require("node:path").sep}e2e${require("node:path").sep}`;

class LongestFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const group = (test) =>
      this.hasFailed(test) ? 0 : test.duration != null ? 3 : test.path.includes(endToEnd) ? 1 : 2;
    // Array.prototype.sort is stable: each group keeps jest's order.
    return ordered.sort((a, b) => group(a) - group(b));
  }
}

module.exports = LongestFirst;
