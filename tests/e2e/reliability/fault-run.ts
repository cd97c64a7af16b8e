import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { SEED_APPS, type RunningEmulator } from "../../../emulator";
import type { SquareCloudClient } from "../../../provider/client";
import { emulatorConfig, inviteCodeConfig } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";
import { faultMix, tallyRequests, type RequestTally } from "./fault-mix";
import { compare, readInventory } from "./inventory";
import type { SecretScanner } from "./secret-scan";
import { VERBOSE, type Transcript } from "./transcript";

// One fault run: the reliability program (databases, a workspace with members and links, a blob
// object and a folder, an app snapshot) through up, a change, refresh and destroy while the
// emulator injects every kind of fault (fault-mix.ts) from a seed. A run converges when, with
// faults off after each step, there is nothing left to preview, the account holds exactly what
// state records, and every one-time secret is in state or reported lost with its recovery step.
// A failed command is run once more, faults still on, and must then succeed, unless it was
// refused only because creates kept an unknown outcome (never sent twice): then it is run again,
// as the refusal tells the user to, a bounded number of times. Shared by the CI test
// (faults.test.ts) and the chaos bench (bench/chaos.ts), so it reports and never asserts.

const TYPE = (kind: string) => `pulumi-nodejs:dynamic/squarecloud:${kind}`;

/** What a fault run needs: one emulator, a client of its first account, and the program's stack. */
export interface FaultRunContext {
  emulator: RunningEmulator;
  api: SquareCloudClient;
  program: ProgramStack;
  /** Keeps each command's output (the lost-password reports are looked for there). */
  transcript: Transcript;
  /** Learns every secret the run sees, for a later plaintext scan. */
  scanner: SecretScanner;
  /** The engine's most verbose logging (what the secrets scan reads); off, commands run faster. */
  verbose: boolean;
}

export interface FaultRunResult {
  rate: number;
  seed: number;
  /** The most `up`s one step ran: 1 when no `up` failed. */
  ups: number;
  /** Each run of a command beyond its second, with what made it necessary. */
  extraRuns: ExtraRun[];
  /** Some command failed at least once (and was run again). */
  commandFailed: boolean;
  duplicates: number;
  orphans: number;
  /** Databases whose password is neither in state nor reported lost with its recovery step. */
  unreportedPasswords: number;
  /** Passwords not in state but reported lost, as the provider must when a create's answer is lost. */
  reportedLostPasswords: number;
  tally: RequestTally;
  /** Why the run did not converge; absent when it did. */
  failure?: string;
}

/** A command run a third time or later, because the one before was refused only over unknown-outcome creates. */
export interface ExtraRun {
  command: string;
  /** 3 for the third run of the command, and so on. */
  run: number;
  /** The resources whose create was refused in the run before, as `Database documents`. */
  refused: string[];
}

/** The one command that runs exactly this seed and rate again. */
export function replayCommand(rate: number, seed: number): string {
  return `FAULT_RATE=${rate} FAULT_SEED=${seed} bash scripts/test dist/tests/e2e/reliability/faults.test.js`;
}

/** The stack of the reliability program, with the folder it publishes in its project directory. */
export async function faultProgram(emulator: RunningEmulator): Promise<ProgramStack> {
  const program = await programStack({ program: "reliability", config: emulatorConfig(emulator) });
  // Objects hold at least 1 KiB.
  mkdirSync(path.join(program.workDir, "site", "css"), { recursive: true });
  writeFileSync(path.join(program.workDir, "site", "index.html"), `<!doctype html><p>${"welcome ".repeat(200)}</p>\n`);
  writeFileSync(
    path.join(program.workDir, "site", "css", "site.css"),
    `body { margin: 0 }\n${"p { color: #333 }\n".repeat(80)}`,
  );
  return program;
}

/** A finding that ends the run: what follows would only repeat it. */
class NotConverged extends Error {}

/** A command that still failed when run again: the run cannot go on. */
class CommandFailed extends Error {}

function check(condition: boolean, message: () => string): void {
  if (!condition) throw new NotConverged(message());
}

export async function faultRun(context: FaultRunContext, rate: number, seed: number): Promise<FaultRunResult> {
  const { emulator, program, transcript } = context;
  const admin = emulator.admin;
  const result: FaultRunResult = {
    rate,
    seed,
    ups: 1,
    extraRuns: [],
    commandFailed: false,
    duplicates: 0,
    orphans: 0,
    unreportedPasswords: 0,
    reportedLostPasswords: 0,
    tally: { requests: 0, faults: 0, retries: 0 },
  };
  await admin.reset();
  await forgetResources(program);
  // Before anything is made: the seed also fixes the ids and invite codes the emulator hands out,
  // so a replay sends the same requests.
  await admin.seedFaults(`faults-${seed}`);
  const tag = `r${seed}`;
  await program.stack.setAllConfig({ ...(await runConfig(context, tag)), generation: { value: "1" } });
  const snapshotsBefore = await botSnapshots(context.api);
  const snapshotIds = new Set<string>();
  const faultsOn = async () => {
    await admin.clearFaults();
    for (const spec of faultMix(rate)) await admin.injectFault(spec);
  };
  const options = context.verbose ? VERBOSE : {};
  const firstLine = transcript.length;

  try {
    await faultsOn();
    await underFaults(context, "up", () => program.stack.up(options), result);
    await admin.clearFaults();
    await checkConverged(context, tag, transcript.since(firstLine), result, snapshotIds);

    await program.stack.setConfig("generation", { value: "2" });
    await faultsOn();
    await underFaults(context, "up", () => program.stack.up(options), result);
    await underFaults(context, "refresh", () => program.stack.refresh(options), result);
    await admin.clearFaults();
    await checkConverged(context, tag, transcript.since(firstLine), result, snapshotIds);

    await faultsOn();
    await underFaults(context, "destroy", () => program.stack.destroy(options), result);
    await admin.clearFaults();
    const left = compare(await readInventory(context.api, admin, tag), { databases: [], workspaces: [], objects: [] });
    result.orphans += left.orphans.length + left.duplicates.length;
    check(
      left.orphans.length + left.duplicates.length + left.missing.length === 0,
      () => `left after destroy: ${JSON.stringify(left)}`,
    );

    // Snapshots are never deleted: each one taken must be one recorded in state.
    const taken = (await botSnapshots(context.api)) - snapshotsBefore;
    result.duplicates += Math.max(0, taken - snapshotIds.size);
    check(taken === snapshotIds.size, () => `${taken} snapshots taken, ${snapshotIds.size} recorded in state`);
  } catch (err) {
    result.failure =
      err instanceof NotConverged || err instanceof CommandFailed ? err.message : String((err as Error).stack ?? err);
  } finally {
    await admin.clearFaults();
    result.tally = tallyRequests(await admin.requests());
  }
  return result;
}

/**
 * A create whose outcome stayed unknown (no usable answer, nothing new listed after looking
 * again) is not sent again within the run, by design: a database or a snapshot sent twice could
 * be made twice. The provider refuses it with an error that says to run `pulumi up` again (or to
 * adopt what appears), and each run of the command draws its own faults.
 */
const UNKNOWN_OUTCOME = /the outcome is unknown|may or may not have been taken/;

/**
 * The answers of the fault mix that prove nothing was done (a 429; a 503 or a reset once the
 * listing shows nothing): the provider sends those again itself, so a create refused over one is
 * outside the contract. The refusal names the last answer, and six of them in a row would be
 * needed to end there by chance (about once in 30,000 sendings at 40%).
 */
const NOT_DONE = /SERVICE_UNAVAILABLE|TOO_MANY_REQUESTS|CONNECTION_RESET/;

/**
 * What the Node SDK reports once the engine has ended an update over another error: a registration
 * answered UNAVAILABLE or CANCELLED makes it close its channel to the engine (terminateRpcs in
 * @pulumi/pulumi/runtime/resource.js), and a call the program makes after that fails in grpc-js
 * with "Channel has been shut down". Whether one comes depends on timing alone.
 */
const AFTER_SHUTDOWN = /Channel has been shut down|Resource monitor is terminating/;

/** A command's own errors: the SDK's reports of the shutdown that followed them are left out. */
function causes(errors: string[]): string[] {
  const own = errors.filter((line) => !AFTER_SHUTDOWN.test(line));
  return own.length > 0 ? own : errors;
}

/**
 * How many times a command may run in one step. The first run may fail for any reason and the
 * second must then succeed; from the second on, a run refused only over unknown-outcome creates
 * is run again, as a user would, up to this bound. Each sending of a create draws its faults
 * apart, and at 40% faults about 13% of them lose the answer in a way nothing can settle (a 500,
 * 502 or 504 with nothing listed after): six in a row, past the bound, happen about once in
 * 100,000 steps, so a run past it points at a fault that repeats.
 */
const MAX_RUNS = 6;

/**
 * Runs a command under faults; when it fails outright, the same command once more must succeed,
 * unless its only errors were unknown outcomes of creates: then it runs again, up to MAX_RUNS.
 */
async function underFaults(
  { transcript }: FaultRunContext,
  label: string,
  command: () => Promise<{ stdout: string; stderr: string }>,
  result: FaultRunResult,
): Promise<void> {
  for (let run = 1; ; run++) {
    try {
      await transcript.record(run === 1 ? label : `${label} (attempt ${run})`, command);
      if (label === "up") result.ups = Math.max(result.ups, run);
      return;
    } catch (err) {
      result.commandFailed = true;
      // The verbose output is megabytes: the failure shows the CLI's own error lines only, with
      // the "* ..." lines that detail a "1 error occurred:".
      const lines = String(err)
        .split("\n")
        .filter((line) => !line.startsWith("{") && !/ error: update failed/.test(line));
      const errors = causes([...new Set(lines.filter((line) => / error: /.test(line)))]);
      const onlyUnknownOutcomes = errors.length > 0 && errors.every((line) => UNKNOWN_OUTCOME.test(line));
      const notSentAgain = errors.filter((line) => UNKNOWN_OUTCOME.test(line) && NOT_DONE.test(line));
      if (notSentAgain.length > 0) {
        throw new CommandFailed(
          `${label} refused creates over answers that prove nothing was done, instead of sending them again:\n${notSentAgain.join("\n")}`,
        );
      }
      if (run >= MAX_RUNS || (run >= 2 && !onlyUnknownOutcomes)) {
        if (label === "up") result.ups = Math.max(result.ups, run);
        const details = [...new Set(lines.filter((line) => / error: |^\s+\* /.test(line)))];
        throw new CommandFailed(`${label} failed ${run} times under faults:\n${details.join("\n")}`);
      }
      if (run >= 2) result.extraRuns.push({ command: label, run: run + 1, refused: refusedResources(errors) });
    }
  }
}

/**
 * The resources named by the engine's progress lines of unknown-outcome refusals
 * (` +  pulumi-nodejs:dynamic/squarecloud:Database documents creating (7s) error: ...`).
 */
function refusedResources(errorLines: string[]): string[] {
  const named = errorLines
    .map((line) => /squarecloud:(\w+) (\S+) .*? error: /.exec(line))
    .filter((match) => match !== null);
  return [...new Set(named.map(([, type, name]) => `${type} ${name}`))];
}

/**
 * With faults off: nothing left to change, the account holds exactly what state records (and
 * the workspace exactly the declared members and links), and each database's password is in
 * state or was reported lost with its recovery step.
 */
async function checkConverged(
  context: FaultRunContext,
  tag: string,
  output: string,
  result: FaultRunResult,
  snapshotIds: Set<string>,
): Promise<void> {
  const { program, scanner } = context;
  await context.transcript.record("preview --expect-no-changes", () =>
    program.stack.preview({ ...(context.verbose ? VERBOSE : {}), expectNoChanges: true }),
  );

  const resources = await program.resources();
  const idsOf = (kind: string) => resources.filter((r) => r.type === TYPE(kind)).map((r) => r.id as string);
  const held = await readInventory(context.api, context.emulator.admin, tag);
  const found = compare(held, {
    databases: idsOf("Database"),
    workspaces: idsOf("Workspace"),
    objects: idsOf("BlobObject"),
  });
  result.duplicates += found.duplicates.length;
  result.orphans += found.orphans.length;
  check(
    found.duplicates.length + found.orphans.length + found.missing.length === 0,
    () => `account and state differ: ${JSON.stringify(found)}`,
  );
  check(idsOf("BlobObject").length === 3, () => `${idsOf("BlobObject").length} blob objects in state, 3 declared`);

  const outputs = await program.stack.outputs();
  const generation = Number((await program.stack.getConfig("generation")).value);
  const { bob, dave } = invitees(context.emulator);
  const members = { [bob.accountId]: "admin", [dave.accountId]: generation === 1 ? "view" : "maintain" };
  check(
    isDeepStrictEqual(held.members, members),
    () => `members ${JSON.stringify(held.members)}, declared ${JSON.stringify(members)}`,
  );
  const applications = (
    generation === 1 ? [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi] : [SEED_APPS.aliceWebsite, SEED_APPS.aliceBot]
  ).sort();
  check(
    isDeepStrictEqual(held.applications, applications),
    () => `linked ${JSON.stringify(held.applications)}, declared ${JSON.stringify(applications)}`,
  );

  const databases = outputs.databases.value as Record<
    string,
    { name: string; password?: string; certificate?: string; connectionUrl?: string }
  >;
  for (const db of Object.values(databases)) {
    scanner
      .add(`password of ${db.name}`, db.password)
      .add(`certificate of ${db.name}`, db.certificate)
      .add(`connection URL of ${db.name}`, db.connectionUrl);
    if (db.password) continue;
    const reported =
      output.includes(`database "${db.name}" was created`) &&
      output.includes("set passwordRotation on this resource to any value and run pulumi up");
    if (reported) result.reportedLostPasswords += 1;
    else result.unreportedPasswords += 1;
    check(reported, () => `the password of database "${db.name}" is not in state and its loss was not reported`);
  }
  const snapshot = outputs.snapshot.value as { id: string; key: string; url?: string };
  scanner.add("snapshot key", snapshot.key).add("snapshot URL", snapshot.url);
  snapshotIds.add(snapshot.id);
}

/** Stack config of one run: its tag, and invite codes each invitee fetched with their own key. */
async function runConfig({ emulator, scanner }: FaultRunContext, tag: string): Promise<ConfigMap> {
  const { bob, dave } = invitees(emulator);
  const codes = await inviteCodeConfig(emulator, { bobCode: bob, daveCode: dave });
  scanner.add("invite code of bob", codes.bobCode.value).add("invite code of dave", codes.daveCode.value);
  return {
    tag: { value: tag },
    apps: {
      value: JSON.stringify({ website: SEED_APPS.aliceWebsite, api: SEED_APPS.aliceApi, bot: SEED_APPS.aliceBot }),
    },
    invitees: {
      value: JSON.stringify({
        bob: { userId: bob.accountId, codeKey: "bobCode" },
        dave: { userId: dave.accountId, codeKey: "daveCode" },
      }),
    },
    ...codes,
  };
}

/**
 * Empties the stack's state. Each run starts from a reset account; a run that failed before its
 * destroy leaves state recording resources the reset deleted, which would fail every later run.
 */
async function forgetResources(program: ProgramStack): Promise<void> {
  const state = (await program.stack.exportStack()) as {
    deployment: { resources?: unknown[]; pending_operations?: unknown[] };
  };
  if ((state.deployment.resources ?? []).length === 0 && (state.deployment.pending_operations ?? []).length === 0)
    return;
  await program.stack.importStack({
    ...state,
    deployment: { ...state.deployment, resources: [], pending_operations: [] },
  } as never);
}

function invitees(emulator: RunningEmulator) {
  return { bob: emulator.accounts[1]!, dave: emulator.accounts[3]! };
}

async function botSnapshots(api: SquareCloudClient): Promise<number> {
  return (await api.listSnapshots("applications")).filter((entry) => entry.name === SEED_APPS.aliceBot).length;
}
