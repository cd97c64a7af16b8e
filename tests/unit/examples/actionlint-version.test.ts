import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../install-script";
import { checkedActionlint, pinnedActionlintVersion } from "./actionlint";

// Release binaries of actionlint print their version bare ("1.7.12"); the build of
// scripts/install-actionlint prints it with a leading v. Both are the pinned version.

const pinned = pinnedActionlintVersion() as string;
let dir: string;

beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), "actionlint-version-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in `actionlint` in its own directory that prints `firstLine` for -version. */
function fakeActionlint(label: string, firstLine: string): string {
  const binDir = path.join(dir, label);
  mkdirSync(binDir, { recursive: true });
  const bin = path.join(binDir, "actionlint");
  writeFileSync(bin, `#!/bin/sh\nprintf '%s\\n' '${firstLine}' 'installed by downloading from release page'\n`);
  chmodSync(bin, 0o755);
  return bin;
}

test.each([`v${pinned}`, pinned])("the tests accept an actionlint that reports %s", (reported) => {
  const bin = fakeActionlint(`accepts-${reported}`, reported);
  expect(checkedActionlint(bin)).toBe(bin);
});

test("the tests refuse another version, naming both", () => {
  const bin = fakeActionlint("older", "1.7.11");
  expect(() => checkedActionlint(bin)).toThrow(`is 1.7.11, scripts/install-actionlint pins v${pinned}`);
});

test("scripts/install-actionlint takes a release binary of the pinned version from PATH", () => {
  const bin = fakeActionlint("release", pinned);
  const printed = execFileSync("bash", [path.join(repoRoot, "scripts", "install-actionlint")], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${path.dirname(bin)}:${process.env.PATH}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  expect(printed.trim()).toBe(path.dirname(bin));
});
