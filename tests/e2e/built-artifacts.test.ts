import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { packageVersion } from "../../provider/client/version";
import { archiveName, hostTarget } from "../../scripts/plugin-archive";
import { repoRoot } from "../install-script";
import { freePorts } from "./harness/free-ports";
import { outsideDir } from "./harness/outside-project";

// What a reader builds for YAML, Python and Go (the plugin archive, the wheel) must outlive the
// next `npm run emulator` or `bash scripts/demo`, even when the sources changed since and they
// compile again. Runs in a copy of the repository that starts from this checkout's compiled
// output, so it compiles once.

const copy = outsideDir("built-artifacts");
const sources = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "scripts",
  "provider",
  "sdk",
  "emulator",
  "tests",
  "bench",
  "examples",
  "dist",
];

/** The copy's node_modules: this checkout's packages, with the package's link to itself pointing at the copy. */
function linkNodeModules(): void {
  const modules = path.join(copy, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(repoRoot, "node_modules"))) {
    if (entry !== "pulumi-squarecloud")
      symlinkSync(path.join(repoRoot, "node_modules", entry), path.join(modules, entry));
  }
  symlinkSync("..", path.join(modules, "pulumi-squarecloud"));
}

/** Runs a command in the copy; returns what it printed (stdout and stderr), failing on a non-zero exit. */
function run(command: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, {
    cwd: copy,
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status ?? result.signal}:\n${printed}`);
  return printed;
}

const built = (): string[] =>
  ["plugin", "python"].flatMap((dir) => readdirSync(path.join(copy, "dist", dir)).map((file) => `${dir}/${file}`));

/** What other builds put in dist/ (hundreds of MB of archives, the shared release): the copy builds its own. */
const otherBuilds = new Set(
  ["plugin", "python", "emulator-archives", "java", "release"].map((dir) => path.join(repoRoot, "dist", dir)),
);

beforeAll(() => {
  for (const entry of sources)
    cpSync(path.join(repoRoot, entry), path.join(copy, entry), {
      recursive: true,
      filter: (file) => path.basename(file) !== "node_modules" && !otherBuilds.has(file),
    });
  linkNodeModules();
}, 120_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

test("npm run build:plugin and build:python compile nothing when the sources are the ones compiled, and leave their archive and wheel", () => {
  // The host's archive alone: the test is about the compile, not about every target.
  const builds = [["build:plugin", "--", "--target", hostTarget()], ["build:python"]];
  for (const [script, ...args] of builds)
    expect(run("npm", ["run", "--silent", script, ...args])).toContain("compiled output is up to date");
  expect(built()).toEqual([
    `plugin/${archiveName(packageVersion(), hostTarget())}`,
    `python/pulumi_squarecloud-${packageVersion()}-py3-none-any.whl`,
  ]);
}, 120_000);

test("npm run emulator compiles changed sources again, removes the compiled module whose source is gone, and keeps the archive and wheel", () => {
  const before = built();
  const retired = path.join(copy, "dist", "emulator", "retired.js");
  writeFileSync(retired, "module.exports = 'a module whose source was deleted';\n");
  writeFileSync(path.join(copy, "dist", ".sources-sha256"), "the hash of older sources\n");
  const out = run("bash", ["scripts/emulator", "--help"]);
  expect(out).toContain("compiling TypeScript");
  expect(out).toContain("--help");
  expect(existsSync(retired)).toBe(false);
  expect(existsSync(path.join(copy, "dist", "emulator", "cli.js"))).toBe(true);
  expect(built()).toEqual(before);
  // The stamp now matches: the next build compiles nothing.
  expect(run("bash", ["scripts/build"])).toContain("compiled output is up to date");
  expect(readFileSync(path.join(copy, "dist", ".sources-sha256"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
}, 300_000);

test("bash scripts/demo keeps the archive and wheel", async () => {
  const before = built();
  const [platform, blob] = await freePorts(2);
  run("bash", ["scripts/demo"], { DEMO_PLATFORM_PORT: String(platform), DEMO_BLOB_PORT: String(blob) });
  expect(built()).toEqual(before);
}, 300_000);
