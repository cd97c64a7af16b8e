import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { pulumiEngine } from "../harness/engine";
import { descendantsOf } from "../../process-tree";
import { programStack, type ProgramStack } from "../harness/stack";

// The engine killed in the middle of an `up` (SIGINT as from Ctrl-C, SIGKILL as from a CI runner
// that times out), then recovered the way docs/guides/interrupted-runs.md prescribes for a file
// backend: `pulumi cancel` for the lock a killed engine leaves, `pulumi refresh
// --clear-pending-creates` for a create whose result was never recorded, and, when that create
// did reach the service, `adoptId` set to the object it made, then `pulumi up`. (The engine's own
// --import-pending-creates leaves a dynamic resource out of state in 3.248: the next up would
// create it twice.) The account must end with
// exactly what the program declares. Each scenario adds one database to the same stack, and the
// engine is stopped while that database's creation is in flight: the emulator holds the request
// (a "hold" fault) until the test has signalled the engine and lets it go.

const suite = emulatorSuite();
const DATABASE_TYPE = "pulumi-nodejs:dynamic/squarecloud:Database";
const declared: Record<string, { name: string; type: string; memory: number; version: string; adoptId?: string }> = {};
let program: ProgramStack;

beforeAll(async () => {
  // Without the preview's key check, the one read of the account before a create is the create's
  // own: the hold on GET /v2/users/me below stops the engine exactly before the POST.
  const config = { ...emulatorConfig(suite.emulator), "squarecloud:skipCredentialsCheck": { value: "true" } };
  program = suite.keep(await programStack({ program: "databases", config }));
});

test("SIGINT while a create is in flight: the engine finishes it and records it; the next up changes nothing", async () => {
  await declare("first");
  const up = pulumi(UP);
  await holdCreate();
  await up.signal("SIGINT");
  await suite.emulator.admin.releaseHeld();
  const { output } = await up.exited;
  expect(output).toMatch(/cancel/i);
  // A graceful stop waits for the operation in flight: no lock and no pending operation is left.
  expect((await exportedState()).deployment.pending_operations ?? []).toEqual([]);
  await program.stack.up();
  await expectExactlyDeclared();
});

test("SIGKILL after the create reached the service: cancel, refresh --clear-pending-creates, adopt by id, up", async () => {
  await declare("second");
  const up = pulumi(UP);
  await holdCreate();
  await up.signal("SIGKILL");
  await up.exited;
  await suite.emulator.admin.releaseHeld();
  // The request the engine never heard the answer to is done on the service all the same.
  await suite.emulator.admin.waitForRequests("POST /v2/databases", 1, 30_000);

  const blocked = await cli(UP);
  expect(blocked.output).toContain("the stack is currently locked");
  expect((await cli(["cancel", "--yes", "--non-interactive"])).code).toBe(0);

  // The pending create names the resource; the account shows the database it made.
  const pending = await onePendingCreate();
  expect(pending.resource.inputs.name).toBe(declared.second.name);
  const [orphan] = await unrecordedDatabases(pending.resource.inputs.name);
  expect(orphan).toBeDefined();
  expect((await cli(["refresh", "--yes", "--skip-preview", "--non-interactive", "--clear-pending-creates"])).code).toBe(
    0,
  );
  expect(await pendingCreates()).toEqual([]);
  // A plain up now would create a second one: the resource takes the orphan over instead.
  declared.second = { ...declared.second, adoptId: orphan };
  await program.stack.setConfig("databases", { value: JSON.stringify(declared) });
  await program.stack.up();
  await expectExactlyDeclared();
  const [recorded] = (await program.resources()).filter((r) => r.urn === pending.resource.urn);
  expect(recorded.id).toBe(orphan);
});

test("SIGKILL before the create was sent: cancel, refresh --clear-pending-creates, up", async () => {
  await declare("third");
  // The database create starts by reading the account; it is held there, so no POST is ever sent.
  await suite.emulator.admin.injectFault({ match: { method: "GET", path: "/v2/users/me" }, kind: "hold", count: 1 });
  await suite.emulator.admin.clearRequests();
  const up = pulumi(UP);
  await suite.emulator.admin.waitForFaultsUsedUp(60_000);
  await up.signal("SIGKILL");
  await up.exited;
  // Once the held read is over, a provider left running would send its create: none may come.
  // Every process signalled is gone before the read is let go, so none is left to send it.
  await suite.emulator.admin.releaseHeld();
  await suite.emulator.admin.waitForRequests("GET /v2/users/me", 1, 30_000);
  expect((await suite.emulator.admin.requests()).filter((r) => r.route === "POST /v2/databases")).toEqual([]);

  expect((await cli(["cancel", "--yes", "--non-interactive"])).code).toBe(0);
  const pending = await onePendingCreate();
  expect(pending.resource.inputs.name).toBe(declared.third.name);
  expect(await unrecordedDatabases(pending.resource.inputs.name)).toEqual([]);
  expect((await cli(["refresh", "--yes", "--skip-preview", "--non-interactive", "--clear-pending-creates"])).code).toBe(
    0,
  );
  await program.stack.up();
  await expectExactlyDeclared();
});

async function declare(key: string): Promise<void> {
  declared[key] = { name: `killed${key}`, type: "redis", memory: 512, version: "7.4.5" };
  await program.stack.setConfig("databases", { value: JSON.stringify(declared) });
}

/** Holds the next database creation on the server (until `releaseHeld`); resolves once it is held. */
async function holdCreate(): Promise<void> {
  await suite.emulator.admin.clearRequests();
  await suite.emulator.admin.injectFault({ match: { method: "POST", path: "/v2/databases" }, kind: "hold", count: 1 });
  await suite.emulator.admin.waitForFaultsUsedUp(60_000);
}

/** The engine's environment, as the Automation API runs it (backend, passphrase, home). */
function engineEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...(program.stack.workspace as LocalWorkspace).envVars };
}

const UP = ["up", "--yes", "--skip-preview", "--non-interactive"];

/**
 * The engine run as the CLI (not the Automation API, which cannot be signalled), with a way to
 * signal it like a terminal or a CI runner would. `signal` resolves once every process signalled
 * is gone.
 */
function pulumi(args: string[]) {
  const started = deferred<number>();
  const exited = (async () => {
    const engine = await pulumiEngine();
    const child = spawn(engine.command, [...args, "--stack", program.stack.name], {
      cwd: program.workDir,
      env: engineEnv(),
    });
    started.resolve(child.pid as number);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, output };
  })();
  return {
    exited,
    signal: async (signal: NodeJS.Signals) => {
      const pid = await started.promise;
      // SIGINT to the engine alone, as a terminal's Ctrl-C reaches it first. SIGKILL to the
      // engine and every process below it, as a CI runner ends a job: the plugins run in
      // process groups of their own, and a provider left running would finish its create late.
      if (signal !== "SIGKILL") return void process.kill(pid, signal);
      const targets = [pid, ...descendantsOf(pid)];
      for (const target of targets) process.kill(target, signal);
      await Promise.all(targets.map(gone));
    },
  };
}

async function cli(args: string[]): Promise<{ code: number | null; output: string }> {
  return pulumi(args).exited;
}

/** Resolves once `pid` has left the process table (a killed process's parent may reap it late). */
async function gone(pid: number): Promise<void> {
  while (existsSync(`/proc/${pid}`) && !isZombie(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

interface PendingOperation {
  type: string;
  resource: { urn: string; type: string; inputs: { name: string } };
}

async function exportedState(): Promise<{ deployment: { pending_operations?: PendingOperation[] } }> {
  return (await program.stack.exportStack()) as never;
}

async function pendingCreates(): Promise<PendingOperation[]> {
  return ((await exportedState()).deployment.pending_operations ?? []).filter((op) => op.type === "creating");
}

/** The one pending create a killed `up` left in state. */
async function onePendingCreate(): Promise<PendingOperation> {
  const pending = await pendingCreates();
  if (pending.length !== 1) {
    throw new Error(
      `expected one pending create in state after the kill, found ${pending.length}: the engine was stopped outside the held create`,
    );
  }
  return pending[0];
}

/** Ids of databases of that name on the account that no resource of the stack records. */
async function unrecordedDatabases(name: string): Promise<string[]> {
  const recorded = (await program.resources()).filter((r) => r.type === DATABASE_TYPE).map((r) => r.id);
  return (await suite.api.me()).databases
    .filter((db) => db.name === name && !recorded.includes(db.id))
    .map((db) => db.id);
}

/** Every declared database exactly once on the account, each the one state records; nothing to change. */
async function expectExactlyDeclared(): Promise<void> {
  await program.stack.preview({ expectNoChanges: true });
  const names = Object.values(declared).map((db) => db.name);
  const live = (await suite.api.me()).databases.filter((db) => db.name.startsWith("killed"));
  expect(live.map((db) => db.name).sort()).toEqual([...names].sort());
  const recorded = (await program.resources()).filter((r) => r.type === DATABASE_TYPE).map((r) => r.id);
  expect(live.map((db) => db.id).sort()).toEqual([...recorded].sort());
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
