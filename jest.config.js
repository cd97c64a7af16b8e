// Tests run on the compiled output: the dynamic-provider process loads compiled JS only, so the
// tests exercise exactly the code the engine runs. `npm run build` precedes every jest run, so jest
// transforms nothing (its default would run Babel over every compiled file).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/dist/tests"],
  testMatch: ["**/*.test.js"],
  moduleFileExtensions: ["js", "json"],
  testTimeout: 30_000,
  transform: {},
  testSequencer: "<rootDir>/jest.sequencer.js",
};
