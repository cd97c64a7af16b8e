import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { program, sectionFiles } from "../../doc-blocks";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { outsideDir, packInto } from "../harness/outside-project";
import { outsideProjectStack, type ProgramStack } from "../harness/stack";
import { cachedTsc, SUPPORTED_TYPESCRIPT, typeCheck } from "../harness/typescript-versions";

// A new project made exactly as the pages say, from the blocks in the files themselves: the three
// files of docs/install.md's "The project files", the tarball in vendor/, `npm install`, and
// README's program (the block marked `<!-- program: readme -->`).

const suite = emulatorSuite();
let project: ProgramStack;

beforeAll(async () => {
  const dir = outsideDir("readme");
  const files = sectionFiles("docs/install.md", "The project files");
  expect(Object.keys(files).sort()).toEqual(["Pulumi.yaml", "package.json", "tsconfig.json"]);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  writeFileSync(path.join(dir, "index.ts"), program("README.md", "readme"));
  const tarballDir = outsideDir("tarball");
  try {
    // The up skips ts-node's type-check: the tests above check the same project with tsc, on each supported TypeScript.
    const env = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
    project = suite.keep(await outsideProjectStack(dir, packInto(tarballDir), { env }));
  } finally {
    rmSync(tarballDir, { recursive: true, force: true });
  }
});

test.each(SUPPORTED_TYPESCRIPT)(
  "the project type-checks with plain tsc --noEmit on TypeScript %s, without skipLibCheck",
  async (version) => {
    const { stdout } = spawnSync(process.execPath, [cachedTsc(version), "--version"], { encoding: "utf8" });
    expect(stdout).toContain(version);
    // Warnings (TS5107 about a deprecated option) are errors on stdout too, and so fail the check.
    expect(await typeCheck(version, project.workDir)).toEqual({ status: 0, stdout: "" });
  },
);

test("README's program runs up and destroy against the emulator, with the config Using it sets", async () => {
  const [, bob] = suite.emulator.accounts;
  await project.stack.setAllConfig({
    ...emulatorConfig(suite.emulator),
    ...(await inviteCodeConfig(suite.emulator, { bobInviteCode: bob })),
  });
  const up = await project.stack.up();
  // The stack, the database, the workspace, its member and the page.
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  expect(up.stdout).not.toContain("undefined");
  expect(up.outputs.teamApps.value).toEqual(["Alice Website"]);
  expect(up.outputs.redisUrl.secret).toBe(true);
  expect(await (await fetch(up.outputs.pageUrl.value)).text()).toContain("<h1>Hello from Pulumi</h1>");

  const destroy = await project.stack.destroy();
  expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
  expect((await fetch(up.outputs.pageUrl.value)).status).toBe(404);
});
