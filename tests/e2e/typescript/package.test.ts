import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import type { SquareCloudClient } from "../../../provider/client";
import { accountClient, emulatorConfig, inviteCodeConfig } from "../harness/emulator-env";
import { pulumiEngine, repoRoot } from "../harness/engine";
import { npmInstall, outsideDir, packInto, pinnedDevDependency, pinnedPulumiSdk } from "../harness/outside-project";
import { checkpointPath } from "../harness/run-results";

// The package as a user gets it: `npm pack` of this repository installed into a brand-new Pulumi
// TypeScript project outside it, so nothing can resolve from the repository's node_modules. The
// real engine runs the project's program (examples/quickstart: all four resources and a data
// source) against the emulator, and the serialized providers must load pulumi-squarecloud from that project.

/** Installing and three engine operations; warm, the whole file takes well under this. */
jest.setTimeout(150_000);

/** How long the installed emulator may take to start, serve a request and stop. */
const INSTALLED_EMULATOR_TIMEOUT_MS = 60_000;

let project: string;
let emulator: RunningEmulator;
/** A client of the main account, to see what the engine did. */
let api: SquareCloudClient;
let stack: Stack;
/** Where each `require("pulumi-squarecloud...")` in the engine's Node processes resolved. */
let resolutionsLog: string;

beforeAll(async () => {
  project = outsideDir("package");
  emulator = await startEmulator();
  api = accountClient(emulator);
  const tarball = packInto(project);
  writeProject(project);
  await npmInstall(project, [
    tarball,
    pinnedPulumiSdk,
    ...["typescript", "ts-node", "@types/node"].map(pinnedDevDependency),
  ]);

  resolutionsLog = path.join(project, "resolutions.log");
  const tracer = path.join(project, "trace-resolutions.js");
  writeFileSync(tracer, traceResolutions(resolutionsLog));
  mkdirSync(path.join(project, "state"));
  const workspace = await LocalWorkspace.create({
    workDir: project,
    pulumiCommand: await pulumiEngine(),
    envVars: {
      PULUMI_BACKEND_URL: `file://${path.join(project, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "package-test",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_HOME: path.join(project, "pulumi-home"),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${tracer}`.trim(),
    },
  });
  stack = await Stack.create("dev", workspace);
  const [, bob] = emulator.accounts;
  await stack.setAllConfig({
    ...emulatorConfig(emulator),
    teammateId: { value: bob.accountId },
    ...(await inviteCodeConfig(emulator, { teammateInviteCode: bob })),
  });
}, 300_000);

afterAll(async () => {
  await stack?.destroy().catch(() => undefined);
  await api?.close();
  await emulator?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

test("up creates all four resources and reads a data source, from the tarball's project", async () => {
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  expect(up.outputs.plan.value).toBe("standard-8");
  expect(up.outputs.cacheUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
  expect(await api.getDatabase(up.outputs.cacheId.value)).toMatchObject({ name: "cache", type: "redis" });
  const { members } = await api.getWorkspace(up.outputs.workspaceId.value);
  expect(members.map((m) => [m.id, m.group])).toContainEqual([emulator.accounts[1].accountId, "view"]);
  expect(await (await fetch(up.outputs.welcomeUrl.value)).text()).toBe(
    readFileSync(path.join(project, "welcome.md"), "utf8"),
  );
});

test("the serialized providers name the package only, and load it from the project's node_modules", () => {
  const checkpoint = checkpointPath(path.join(project, "state"), "squarecloud-package", "dev");
  const resources: { type: string; inputs?: { __provider?: string } }[] = JSON.parse(readFileSync(checkpoint, "utf8"))
    .checkpoint.latest.resources;
  const stubs = resources
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/squarecloud:"))
    .map((r) => r.inputs?.__provider ?? "");
  expect(stubs).toHaveLength(4);
  for (const stub of stubs) {
    expect(stub).toContain('require("pulumi-squarecloud/provider")');
    expect(stub).not.toContain(repoRoot);
    expect(stub).not.toContain(project);
  }

  // Every resolution, in the program and in the provider processes, landed in the project's copy.
  const installed = path.join(realpathSync(project), "node_modules", "pulumi-squarecloud") + path.sep;
  const resolutions: { pid: number; request: string; file: string }[] = readFileSync(resolutionsLog, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const providerLoads = resolutions.filter((r) => r.request === "pulumi-squarecloud/provider");
  // The stubs' loads happen in the dynamic-provider processes, not in the program's.
  const programPids = new Set(resolutions.filter((r) => r.request === "pulumi-squarecloud").map((r) => r.pid));
  expect(providerLoads.filter((r) => !programPids.has(r.pid)).length).toBeGreaterThan(0);
  expect(resolutions.filter((r) => !realpathSync(r.file).startsWith(installed))).toEqual([]);
});

test("refresh finds nothing to change, and destroy removes everything", async () => {
  // The preview skips ts-node's type-check, which the first test's up ran on the same program.
  stack.workspace.envVars.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
  const refresh = await stack.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
  expect((await stack.preview()).changeSummary).toEqual({ same: 5 });

  const { cacheId } = await stack.outputs();
  const destroy = await stack.destroy();
  expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
  await expect(api.getDatabase(cacheId.value)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
});

test("squarecloud-emulator runs from the installed package: npx --help, then a start, a request and a stop", async () => {
  const help = execFileSync("npx", ["--no-install", "squarecloud-emulator", "--help"], {
    cwd: project,
    encoding: "utf8",
  });
  expect(help).toMatch(/^Usage: squarecloud-emulator/);

  const { output, code } = await runInstalledEmulator(project, async (platformUrl) => {
    const me = await fetch(`${platformUrl}/v2/users/me`, { headers: { Authorization: emulator.accounts[0].apiKey } });
    expect(me.status).toBe(200);
  });
  expect(output).toContain("SIGTERM: stopping");
  expect(code).toBe(0);
});

/** What `pulumi new typescript` writes, with the quickstart's program and the file it uploads. */
function writeProject(dir: string): void {
  writeFileSync(path.join(dir, "Pulumi.yaml"), "name: squarecloud-package\nruntime: nodejs\n");
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "squarecloud-package", private: true, main: "index.ts" }, null, 2),
  );
  const compilerOptions = {
    strict: true,
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    forceConsistentCasingInFileNames: true,
  };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["index.ts"] }, null, 2));
  for (const file of ["index.ts", "welcome.md"])
    copyFileSync(path.join(repoRoot, "examples", "quickstart", file), path.join(dir, file));
}

/**
 * A module preloaded into every Node process the engine starts (program and dynamic providers):
 * it appends the file each `pulumi-squarecloud` request resolved to, with the process id.
 */
function traceResolutions(log: string): string {
  return `const Module = require("node:module");
const { appendFileSync } = require("node:fs");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const file = resolve.call(this, request, ...rest);
  if (request.startsWith("pulumi-squarecloud")) appendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, request, file }) + "\\n");
  return file;
};
`;
}

/**
 * Starts the project's installed `squarecloud-emulator` on free ports, runs `whileUp` with its
 * platform URL once it says it is ready, then stops it with SIGTERM.
 */
function runInstalledEmulator(
  cwd: string,
  whileUp: (platformUrl: string) => Promise<void>,
): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const bin = path.join(cwd, "node_modules", ".bin", "squarecloud-emulator");
    const child = spawn(bin, ["--platform-port", "0", "--blob-port", "0"], { cwd });
    let output = "";
    let ready = false;
    // A child that never gets ready or never stops must not hang the file until jest gives up.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `squarecloud-emulator did not start, serve and stop within ${INSTALLED_EMULATOR_TIMEOUT_MS} ms; its output:\n${output}`,
        ),
      );
    }, INSTALLED_EMULATOR_TIMEOUT_MS);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const platformUrl = /platform API\s+(\S+)/.exec(output)?.[1];
      if (ready || !platformUrl || !output.includes("Ctrl+C to stop.")) return;
      ready = true;
      whileUp(platformUrl).then(
        () => child.kill("SIGTERM"),
        (error) => {
          child.kill("SIGTERM");
          reject(error);
        },
      );
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
}
