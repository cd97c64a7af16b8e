import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { SEED_ACCOUNTS, SEED_APPS, type RunningEmulator, type SeededAccount } from "../../../emulator";
import { emulatorConfig, accountClient, inviteCodeConfig } from "../harness/emulator-env";
import { programStack, pythonStack, yamlStack, type ProgramStack } from "../harness/stack";

// Many stacks of one account at once, as a GitOps pipeline runs per-environment stacks with one
// key: each stack declares two databases, a workspace with two members, blob objects, a synced
// folder and an app snapshot (programs/fleet, or the YAML and Python forms written here), all
// under a tag of its own. The emulator enforces the account's limits across the stacks (one app
// snapshot per 5 s, 4 uploads in flight, a request rate), as the live service does across
// processes. Shared by the e2e (parallel-stacks.test.ts) and the bench (bench/parallel-stacks.ts),
// so it reports and never asserts.

export type FleetLanguage = "typescript" | "yaml" | "python";

export interface FleetShape {
  /** One stack per entry, in that language. */
  languages: FleetLanguage[];
  /** Blob objects per stack. */
  objects: number;
  /** Files of each stack's synced folder. */
  folderFiles: number;
  /** Objects rewritten by the change. */
  changedObjects: number;
  /** Folder files rewritten by the change. */
  changedFiles: number;
}

/** The account every stack runs with: the seed's main account, given room for every stack's databases. */
export const FLEET_ACCOUNT = SEED_ACCOUNTS.alice;
const FLEET_PLAN = "enterprise-32";
/** The application every stack snapshots: the account's snapshot limits are what is measured. */
const FLEET_APP = SEED_APPS.aliceBot;

export interface FleetStack {
  tag: string;
  language: FleetLanguage;
  program: ProgramStack;
  /** Writes what generation `n` declares: the program's config or text, and the folder's files. */
  declare(generation: number): void | Promise<void>;
}

export interface Fleet {
  shape: FleetShape;
  stacks: FleetStack[];
  /** Destroys what is left and removes every stack's directories. */
  dispose(): Promise<void>;
}

/** What one stack's command ended in. */
export interface StackOutcome {
  tag: string;
  language: FleetLanguage;
  ok: boolean;
  /** The CLI's error lines when it failed. */
  error?: string;
}

/** The tag of stack `i`: a prefix of every name it declares (objects' prefixes are 3 to 32 characters). */
function tagOf(i: number): string {
  return `fleet${i}`;
}

/** The stack's folder: `files` files of 1 KiB and more; generation 2 rewrites the first `changed`. */
function writeFolder(workDir: string, files: number, changed: number, generation: number): void {
  for (let i = 0; i < files; i++) {
    const version = i < changed ? generation : 1;
    const file = path.join(workDir, "site", `d${i % 10}`, `f${i}.txt`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `file ${i}, version ${version}\n`.repeat(64));
  }
}

function objectText(tag: string, i: number, version: number): string {
  return `object ${i} of ${tag}, version ${version}\n`.repeat(48);
}

/** The YAML form of programs/fleet: loops unrolled, the invite codes read from secret config. */
function yamlProgram(tag: string, shape: FleetShape, generation: number, members: FleetMember[]) {
  const changed = generation > 1;
  const resources: Record<string, unknown> = {
    cache: {
      type: "squarecloud:index:Database",
      properties: { name: `${tag}cache`, type: "redis", memory: changed ? 1024 : 512, version: "7.4.5" },
    },
    documents: {
      type: "squarecloud:index:Database",
      properties: { name: `${tag}docs`, type: "mongo", memory: 1024, version: "7.0" },
    },
    crew: { type: "squarecloud:index:Workspace", properties: { name: `${tag}_crew` } },
    site: {
      type: "squarecloud:index:BlobFolder",
      properties: { directory: "site", prefix: `${tag}_site`, managedObjects: false },
    },
    backup: {
      type: "squarecloud:index:AppSnapshot",
      properties: { appId: FLEET_APP, trigger: `generation-${generation}` },
    },
  };
  members.forEach((member, i) => {
    resources[i === 0 ? "first" : "second"] = {
      type: "squarecloud:index:WorkspaceMember",
      properties: {
        workspaceId: "${crew.id}",
        userId: member.userId,
        group: memberGroup(i, changed),
        inviteCode: `\${${member.codeKey}}`,
      },
    };
  });
  for (let i = 0; i < shape.objects; i++) {
    resources[`o${i}`] = {
      type: "squarecloud:index:BlobObject",
      properties: {
        name: `${tag}_o${i}`,
        prefix: tag,
        source: { "fn::stringAsset": objectText(tag, i, i < shape.changedObjects ? generation : 1) },
      },
    };
  }
  const config = Object.fromEntries(members.map((m) => [m.codeKey, { type: "string" }]));
  return { config, resources };
}

/** The Python form of programs/fleet, with the generated SDK. */
function pythonProgram(tag: string, shape: FleetShape, generation: number, members: FleetMember[]): string {
  const changed = generation > 1;
  const py = (value: unknown) => JSON.stringify(value);
  const lines = [
    "import pulumi",
    "import pulumi_squarecloud as squarecloud",
    "",
    "config = pulumi.Config()",
    `squarecloud.Database("cache", name=${py(`${tag}cache`)}, type="redis", memory=${changed ? 1024 : 512}, version="7.4.5")`,
    `squarecloud.Database("documents", name=${py(`${tag}docs`)}, type="mongo", memory=1024, version="7.0")`,
    `crew = squarecloud.Workspace("crew", name=${py(`${tag}_crew`)})`,
    ...members.map(
      (m, i) =>
        `squarecloud.WorkspaceMember(${py(i === 0 ? "first" : "second")}, workspace_id=crew.id, user_id=${py(m.userId)}, group=${py(memberGroup(i, changed))}, invite_code=config.require_secret(${py(m.codeKey)}))`,
    ),
    ...Array.from(
      { length: shape.objects },
      (_, i) =>
        `squarecloud.BlobObject(${py(`o${i}`)}, name=${py(`${tag}_o${i}`)}, prefix=${py(tag)}, source=pulumi.StringAsset(${py(objectText(tag, i, i < shape.changedObjects ? generation : 1))}))`,
    ),
    `squarecloud.BlobFolder("site", directory="site", prefix=${py(`${tag}_site`)}, managed_objects=False)`,
    `squarecloud.AppSnapshot("backup", app_id=${py(FLEET_APP)}, trigger=${py(`generation-${generation}`)})`,
    "",
  ];
  return lines.join("\n");
}

/** The first member is an admin; the second is regrouped by the change. */
function memberGroup(index: number, changed: boolean): string {
  return index === 0 ? "admin" : changed ? "maintain" : "view";
}

interface FleetMember {
  userId: string;
  codeKey: string;
}

/**
 * Two people per stack, added to the emulator for the run: an invite code is single use and one
 * at a time per person, so stacks adding members at once cannot share invitees.
 */
async function invitees(emulator: RunningEmulator, tag: string): Promise<SeededAccount[]> {
  return Promise.all(
    ["a", "b"].map(async (suffix) => {
      const added = await emulator.admin.createAccount(`${tag}_${suffix}`);
      return { ...added, plan: "standard-4" };
    }),
  );
}

async function openStack(emulator: RunningEmulator, shape: FleetShape, i: number): Promise<FleetStack> {
  const tag = tagOf(i);
  const language = shape.languages[i]!;
  const people = await invitees(emulator, tag);
  const members = people.map((person, j) => ({ userId: person.accountId, codeKey: `code${j}` }));
  const codes = await inviteCodeConfig(emulator, Object.fromEntries(members.map((m, j) => [m.codeKey, people[j]!])));
  const config: ConfigMap = { ...emulatorConfig(emulator), ...codes };
  const label = `fleet-${language}-${i}`;
  let program: ProgramStack;
  let declareProgram: (generation: number) => void | Promise<void>;
  if (language === "typescript") {
    program = await programStack({
      program: "fleet",
      config: {
        ...config,
        tag: { value: tag },
        objects: { value: String(shape.objects) },
        changedObjects: { value: String(shape.changedObjects) },
        members: { value: JSON.stringify(members) },
        app: { value: FLEET_APP },
      },
    });
    declareProgram = (generation) => program.stack.setConfig("generation", { value: String(generation) });
  } else if (language === "yaml") {
    const yaml = await yamlStack(label, yamlProgram(tag, shape, 1, members), { config });
    program = yaml;
    declareProgram = (generation) => yaml.setProgram(yamlProgram(tag, shape, generation, members));
  } else {
    const python = await pythonStack(label, pythonProgram(tag, shape, 1, members), { config });
    program = python;
    declareProgram = (generation) => python.setProgram(pythonProgram(tag, shape, generation, members));
  }
  const declare = async (generation: number) => {
    writeFolder(program.workDir, shape.folderFiles, shape.changedFiles, generation);
    await declareProgram(generation);
  };
  await declare(1);
  return { tag, language, program, declare };
}

/** A fresh account (the seed, the plan that holds every stack's databases) and one stack per language entry. */
export async function openFleet(emulator: RunningEmulator, shape: FleetShape): Promise<Fleet> {
  await emulator.admin.reset();
  await emulator.admin.setPlan(FLEET_ACCOUNT.accountId, FLEET_PLAN);
  const stacks: FleetStack[] = [];
  const dispose = async () => {
    await Promise.all(stacks.map((s) => s.program.dispose().catch(() => undefined)));
  };
  try {
    // One at a time: each opens a workspace and installs nothing, but fetches codes in turn.
    for (let i = 0; i < shape.languages.length; i++) stacks.push(await openStack(emulator, shape, i));
  } catch (error) {
    await dispose();
    throw error;
  }
  return { shape, stacks, dispose };
}

/** Runs `command` on every stack at once; each outcome, whatever the others'. */
export async function allAtOnce(
  fleet: Fleet,
  command: (stack: FleetStack) => Promise<unknown>,
): Promise<StackOutcome[]> {
  return Promise.all(
    fleet.stacks.map(async (stack) => {
      try {
        await command(stack);
        return { tag: stack.tag, language: stack.language, ok: true };
      } catch (error) {
        const lines = String(error)
          .split("\n")
          .filter((line) => / error: |^\s+\* /.test(line));
        return { tag: stack.tag, language: stack.language, ok: false, error: [...new Set(lines)].join("\n") };
      }
    }),
  );
}

/** What the account holds under the fleet's tags that no stack's state records, and what state records that it does not hold. */
export interface FleetDiscrepancies {
  /** On the account, in no stack's state: duplicates of a declared object, or orphans. */
  unrecorded: string[];
  /** In some stack's state, not on the account. */
  missing: string[];
}

/** Every id a stack's state records of the kinds the account lists (the synced folder's objects included). */
async function recordedIds(stack: FleetStack): Promise<string[]> {
  const ids: string[] = [];
  for (const resource of await stack.program.resources()) {
    const kind = /squarecloud:(?:index:)?(\w+)$/.exec(resource.type)?.[1];
    if (kind === "Database" || kind === "Workspace" || kind === "BlobObject") ids.push(resource.id as string);
    if (kind === "BlobFolderSync")
      ids.push(...Object.values((resource.outputs?.objects ?? {}) as Record<string, string>));
  }
  return ids;
}

/** Past the service's 30 s list cache: the account's databases, workspaces and objects under the fleet's tags, beside every stack's state. */
export async function fleetDiscrepancies(emulator: RunningEmulator, fleet: Fleet): Promise<FleetDiscrepancies> {
  const api = accountClient(emulator);
  try {
    await emulator.admin.advanceClock(31_000);
    const [account, workspaces, objects] = await Promise.all([api.me(), api.listWorkspaces(), api.listAllObjects()]);
    const ours = (name: string) => /^fleet\d/.test(name);
    const held = [
      ...account.databases.filter((db) => ours(db.name)).map((db) => `database ${db.id}`),
      ...workspaces.filter((ws) => ours(ws.name)).map((ws) => `workspace ${ws.id}`),
      ...objects.filter((o) => ours(o.id.split("/")[1] ?? "")).map((o) => `blob object ${o.id}`),
    ];
    const recorded = new Set((await Promise.all(fleet.stacks.map(recordedIds))).flat());
    const heldIds = held.map((entry) => entry.slice(entry.lastIndexOf(" ") + 1));
    return {
      unrecorded: held.filter((entry) => !recorded.has(entry.slice(entry.lastIndexOf(" ") + 1))),
      missing: [...recorded].filter((id) => !heldIds.includes(id)),
    };
  } finally {
    await api.close();
  }
}

/** The 429s the emulator answered since its log was last cleared, by route. */
export async function refusalsByRoute(emulator: RunningEmulator): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const entry of await emulator.admin.requests()) {
    if (entry.status !== 429) continue;
    counts[entry.route] = (counts[entry.route] ?? 0) + 1;
  }
  return counts;
}
