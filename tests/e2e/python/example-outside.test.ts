import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import * as path from "node:path";
import { hostPulumiVersion } from "../harness/engine";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { outsideDir } from "../harness/outside-project";
import { installPluginTarball } from "../harness/plugin-tarball";
import { type ProgramStack, outsidePythonExampleStack, pythonSdkBuild } from "../harness/stack";

// The Python example as a user runs it, nothing taken from this repository: the wheel of
// `npm run build:python` (the one the Python test files share) installed into a fresh virtualenv
// outside it, the plugin installed from its tarball into a fresh Pulumi home, then up, refresh and
// destroy.

const suite = emulatorSuite();
const outside = outsideDir("python-user");
const venv = path.join(outside, "venv");
let program: ProgramStack;

beforeAll(async () => {
  const { wheel } = await pythonSdkBuild();
  execFileSync("python3", ["-m", "venv", venv]);
  execFileSync(path.join(venv, "bin", "pip"), ["install", "--quiet", wheel, `pulumi==${hostPulumiVersion()}`], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const home = path.join(outside, "pulumi-home");
  installPluginTarball(home);
  const [, bob, carol, dave] = suite.emulator.accounts;
  const codes = await inviteCodeConfig(suite.emulator, {
    bobInviteCode: bob,
    carolInviteCode: carol,
    daveInviteCode: dave,
  });
  program = await outsidePythonExampleStack("team-onboarding-python", path.join(venv, "bin"), {
    config: { ...emulatorConfig(suite.emulator), ...codes },
    env: { PULUMI_HOME: home },
  });
  suite.keep(program);
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

test("the installed package is typed: py.typed and the stubs beside the modules", () => {
  const found = execFileSync(
    path.join(venv, "bin", "python"),
    ["-c", "import os, pulumi_squarecloud as p; print(os.path.dirname(p.__file__))"],
    { encoding: "utf8" },
  ).trim();
  expect(found.startsWith(venv)).toBe(true);
  for (const file of ["py.typed", "database.py", "config/__init__.pyi"])
    expect({ file, present: existsSync(path.join(found, file)) }).toEqual({ file, present: true });
});

test("up turns the roster into the workspace and its three members, in their groups", async () => {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const [, bob, carol, dave] = suite.emulator.accounts;
  expect(up.outputs.memberGroups.value).toEqual({
    [bob.accountId]: "admin",
    [carol.accountId]: "maintain",
    [dave.accountId]: "view",
  });
  const workspace = await suite.api.getWorkspace(up.outputs.workspaceId.value);
  expect(workspace.name).toBe("platform_crew");
  expect(workspace.members.filter((member) => member.group !== "owner")).toHaveLength(3);
});

test("refresh finds everything as the program left it", async () => {
  const refresh = await program.stack.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
});

test("destroy removes the members and the workspace", async () => {
  const workspaceId = (await program.stack.outputs()).workspaceId.value;
  const destroy = await program.stack.destroy();
  expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
  await expect(suite.api.getWorkspace(workspaceId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
});
