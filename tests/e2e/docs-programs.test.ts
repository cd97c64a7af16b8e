import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { ConfigMap, DestroyResult, OutputMap } from "@pulumi/pulumi/automation";
import { SEED_ACCOUNTS, SEED_APPS, SEED_DATABASES } from "../../emulator";
import { type DocProgram, docFiles, programs, sectionFiles } from "../doc-blocks";
import { repoRoot } from "./harness/engine";
import { RESTORE_ROUTE, SNAPSHOT_ROUTE } from "./lifecycles/operation-routes";
import { type EmulatorSuite, emulatorConfig, emulatorSuite, inviteCodeConfig } from "./harness/emulator-env";
import {
  type GoStack,
  goStack,
  type JavaStack,
  javaStack,
  projectStack,
  type ProgramStack,
  type PythonStack,
  pythonStack,
  type YamlStack,
  yamlStack,
} from "./harness/stack";
import { SUPPORTED_TYPESCRIPT, typeCheck } from "./harness/typescript-versions";

// Every program block of docs/ (`<!-- program: <name> -->`), run as a reader runs it. A
// TypeScript program runs in the project of README's Install section, as index.ts, the package
// resolved by its name; a Pulumi YAML program is the project file, a Python program the
// project's __main__.py, a Go program its main.go and a Java program its class App (the generated
// SDKs), run by the native plugin. One stack per language serves them all, one program after the other: `up`, what the page says it does, then `destroy`.
// The languages run side by side, each against an emulator of its own, as the engine's runs of one
// stack leave the cores idle much of the time. A page's tabs share a name and, where they say the
// same, the run. README.md's own program runs in readme.test.ts, in a project outside the repository.

interface ProgramRun {
  /** Stack config besides the emulator's URLs and key. */
  config?: (suite: EmulatorSuite) => Promise<ConfigMap>;
  /** Repository paths copied into the project, by their path there: what the page says the project holds. */
  files?: Record<string, string>;
  /** What `up` creates, the stack included. */
  creates: number;
  /** What the outputs and the account (the emulator of the program's language) show after `up`. */
  check(outputs: OutputMap, suite: EmulatorSuite): Promise<void> | void;
  /** What differs for the page's YAML program of that name. */
  yaml?: Partial<ProgramRun>;
  /** What differs for the page's Python program of that name. */
  python?: Partial<ProgramRun>;
  /** What differs for the page's Go program of that name. */
  go?: Partial<ProgramRun>;
  /** What differs for the page's Java program of that name. */
  java?: Partial<ProgramRun>;
}

const LANGUAGES = ["ts", "yaml", "python", "go", "java"] as const;
type Language = (typeof LANGUAGES)[number];
/** An emulator per language: each language's programs meet the account as seeded, whatever the others do. */
const suites = Object.fromEntries(LANGUAGES.map((language) => [language, emulatorSuite()])) as Record<
  Language,
  EmulatorSuite
>;
const alice = (suite: EmulatorSuite) => suite.emulator.accounts[0];
const RESTORED_VERSION = "2ea6d485-9961-4704-94e7-72635b78bdb6";

const RUNS: Record<string, ProgramRun> = {
  database: {
    creates: 2,
    async check({ sessionsId, sessionsUrl }, suite) {
      expect(sessionsUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
      expect(await suite.api.getDatabase(sessionsId.value)).toMatchObject({
        name: "sessions",
        type: "redis",
        ram: 512,
      });
    },
  },
  workspace: {
    creates: 2,
    async check({ teamId, teamApps, teamMembers }, suite) {
      expect(teamApps.value).toEqual(["Alice Website"]);
      expect(teamMembers.value).toEqual([`${alice(suite).name} (owner)`]);
      await expectOnlyWebsiteLinked(suite, teamId.value);
    },
    // The YAML program exports the applications and members as they are; Python, as TypeScript, their names.
    yaml: {
      async check({ teamId, teamApps, teamMembers }, suite) {
        expect(teamApps.value).toEqual([
          expect.objectContaining({ id: SEED_APPS.aliceWebsite, name: "Alice Website" }),
        ]);
        expect(teamMembers.value).toEqual([expect.objectContaining({ name: alice(suite).name, group: "owner" })]);
        await expectOnlyWebsiteLinked(suite, teamId.value);
      },
    },
  },
  "workspace-member": {
    config: (suite) => inviteCodeConfig(suite.emulator, { bobInviteCode: suite.emulator.accounts[1] }),
    creates: 3,
    async check({ bobGroup }, suite) {
      expect(bobGroup.value).toBe("maintain");
      const crew = (await suite.api.listWorkspaces()).filter((workspace) => workspace.name === "platform_crew");
      expect(crew.map((workspace) => workspace.members.map(({ id, group }) => ({ id, group })))).toEqual([
        expect.arrayContaining([{ id: suite.emulator.accounts[1].accountId, group: "maintain" }]),
      ]);
    },
  },
  "blob-object": {
    creates: 2,
    async check({ pageUrl, pageExpiresAt }) {
      expect(await (await fetch(pageUrl.value)).text()).toContain("<h1>Hello from Pulumi</h1>");
      expect(pageExpiresAt.value).toEqual(expect.any(String));
    },
    // A file of the project in YAML; a text, as in TypeScript, in Python.
    yaml: {
      files: { public: "examples/static-assets/public" },
      async check({ pageUrl, pageExpiresAt }) {
        const served = await fetch(pageUrl.value);
        expect({ type: served.headers.get("content-type"), body: await served.text() }).toEqual({
          type: "text/html",
          body: readFileSync(path.join(repoRoot, "examples/static-assets/public/index.html"), "utf8"),
        });
        expect(pageExpiresAt.value).toEqual(expect.any(String));
      },
    },
  },
  "blob-folder": {
    files: { public: "examples/static-assets/public" },
    // The stack, the folder and its three files.
    creates: 5,
    async check({ urls }) {
      expect(Object.keys(urls.value).sort()).toEqual(["css/site.css", "data/menu.json", "index.html"]);
      expect((await fetch(urls.value["index.html"])).status).toBe(200);
    },
  },
  "app-snapshot": {
    creates: 2,
    async check({ backupUrl, backupTakenAt }, suite) {
      expect(backupUrl.secret).toBe(true);
      expect(Date.parse(backupTakenAt.value)).not.toBeNaN();
      expect(await succeeded(suite, SNAPSHOT_ROUTE)).toBe(1);
    },
  },
  "database-restore": {
    creates: 2,
    async check({ restoredVersion }, suite) {
      expect(restoredVersion.value).toBe(RESTORED_VERSION);
      expect(await succeeded(suite, RESTORE_ROUTE)).toBe(1);
    },
  },
  "app-file-move": {
    creates: 2,
    // Moved: nothing is left at the old path to move.
    check: (_outputs, suite) =>
      expect(suite.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "index.js", to: "again.js" })).rejects.toMatchObject(
        { code: "FILE_NOT_FOUND" },
      ),
  },
  "native-cache": {
    creates: 2,
    async check({ redisUrl }, suite) {
      expect(redisUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
      // The account has a "cache" of its own: the one created is the one the URL leads to.
      const host = new URL(redisUrl.value).host;
      const created = (await suite.api.listDatabases()).filter(
        (db) => db.connection_url && new URL(db.connection_url).host === host,
      );
      expect(created).toEqual([expect.objectContaining({ name: "cache", type: "redis", memory: 512 })]);
    },
  },
  "native-providers": {
    config: async (suite) => ({ teamKey: { value: alice(suite).apiKey, secret: true } }),
    // The stack, the explicit provider and the database.
    creates: 3,
    async check(_outputs, suite) {
      expect((await suite.api.listDatabases()).filter((db) => db.name === "teamcache")).toEqual([
        expect.objectContaining({ type: "redis", memory: 512 }),
      ]);
    },
  },
  "data-sources": {
    creates: 1,
    check: expectAccountReads,
    yaml: readsThroughTeamProvider(expectSnapshotsAndTeamUser),
    // Python and Go read both what TypeScript reads and what YAML reads.
    python: readsThroughTeamProvider(expectEveryRead),
    go: readsThroughTeamProvider(expectEveryRead),
    // Java exports the fields it reads: names and a version.
    java: readsThroughTeamProvider(({ pythonApps, latest, teamName, backupNames, teamUser }) => {
      expect(pythonApps.value).toEqual(["Alice Bot"]);
      expect(latest.value).toBe("f5f93ab3-3cbc-42b5-b8c0-f6605c64cea9");
      expect(teamName.value).toBe("platform_team");
      expect(backupNames).toMatchObject({ secret: true, value: expect.arrayContaining([SEED_DATABASES.aliceMain]) });
      expect(teamUser.value).toBe(SEED_ACCOUNTS.bob.name);
    }),
  },
};

/** The programs of docs/, TypeScript, YAML, Python, Go and Java. */
const found: DocProgram[] = docFiles().flatMap((file) => (file.startsWith("docs/") ? programs(file) : []));

/** Where a program of each language is written and run. */
interface LanguageStack {
  project: ProgramStack;
  write(program: DocProgram): void;
}
const stacks = {} as Record<Language, LanguageStack>;

/** How many requests of the route the emulator carried out since the program began (a refusal and its retry count once). */
async function succeeded(suite: EmulatorSuite, route: string): Promise<number> {
  return (await suite.emulator.admin.requests()).filter((request) => request.route === route && request.status < 300)
    .length;
}

/** The data sources' TypeScript program's reads: a workspace, a snapshot's version and the apps of a language. */
function expectAccountReads({ team, latest, pythonApps }: OutputMap): void {
  expect(team.value.name).toBe("platform_team");
  expect(latest.value).toBe("f5f93ab3-3cbc-42b5-b8c0-f6605c64cea9");
  expect(pythonApps.value.apps.map((app: { name: string }) => app.name)).toEqual(["Alice Bot"]);
}

/** The data sources' YAML program's reads: the snapshots (secret for their keys) and the user of the explicit provider's key. */
function expectSnapshotsAndTeamUser({ backups, teamUser }: OutputMap): void {
  expect(backups).toMatchObject({
    secret: true,
    value: expect.arrayContaining([expect.objectContaining({ name: SEED_DATABASES.aliceMain })]),
  });
  expect(teamUser.value).toBe(SEED_ACCOUNTS.bob.name);
}

/** What TypeScript's and YAML's data-sources programs read, read by one program. */
function expectEveryRead(outputs: OutputMap): void {
  expectAccountReads(outputs);
  expectSnapshotsAndTeamUser(outputs);
}

/** A data-sources run whose program declares the explicit provider `team` with another account's key (`teamKey`). */
function readsThroughTeamProvider(check: ProgramRun["check"]): Partial<ProgramRun> {
  return {
    config: async () => ({ teamKey: { value: SEED_ACCOUNTS.bob.apiKey, secret: true } }),
    // The stack and the explicit provider.
    creates: 2,
    check,
  };
}

async function expectOnlyWebsiteLinked(suite: EmulatorSuite, workspaceId: string): Promise<void> {
  expect((await suite.api.getWorkspace(workspaceId)).applications.map((app) => app.id)).toEqual([
    SEED_APPS.aliceWebsite,
  ]);
}

/** A page's YAML program without its project lines (name, runtime): the test's project gives its own. */
function yamlBody(program: DocProgram): string {
  const header = /^name: [\w-]+\nruntime: yaml\n/;
  return program.code.replace(header, "");
}

/** The environment of a language's stack: explicit providers read the URLs from it, as a reader's would with SQUARECLOUD_PLATFORM_URL set. */
const urlsOf = ({ emulator }: EmulatorSuite) => ({
  SQUARECLOUD_PLATFORM_URL: emulator.platformUrl,
  SQUARECLOUD_BLOB_URL: emulator.blobUrl,
});

beforeAll(async () => {
  // The Java programs compile (one JVM for all) while the other languages' stacks are made.
  const javaPrograms = found.filter((program) => program.language === "java");
  const javaCreated = javaStack(
    "docs-java",
    javaPrograms.map((program) => program.code),
    { env: urlsOf(suites.java) },
  );
  // Awaited below; until then a failure must not count as unhandled.
  javaCreated.catch(() => undefined);
  const source = mkdtempSync(path.join(tmpdir(), "squarecloud-docs-"));
  try {
    for (const [name, content] of Object.entries(sectionFiles("docs/install.md", "The project files")))
      writeFileSync(path.join(source, name), content);
    // Its ups skip ts-node's type-check: one tsc checks every TypeScript program below, where each up would check its own.
    const project = suites.ts.keep(await projectStack(source, { env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } }));
    stacks.ts = { project, write: ({ code }) => writeFileSync(path.join(project.workDir, "index.ts"), code) };
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
  const yaml: YamlStack = await yamlStack("docs-yaml", { resources: {} }, { env: urlsOf(suites.yaml) });
  suites.yaml.keep(yaml);
  stacks.yaml = { project: yaml, write: (program) => yaml.setProgramYaml(yamlBody(program)) };
  const python: PythonStack = await pythonStack("docs-python", "", { env: urlsOf(suites.python) });
  suites.python.keep(python);
  stacks.python = { project: python, write: ({ code }) => python.setProgram(code) };
  const go: GoStack = await goStack("docs-go", "", { env: urlsOf(suites.go) });
  suites.go.keep(go);
  stacks.go = { project: go, write: ({ code }) => go.setProgram(code) };
  const java: JavaStack = await javaCreated;
  suites.java.keep(java);
  stacks.java = { project: java, write: (program) => java.setProgram(javaPrograms.indexOf(program)) };
  startRuns();
});

/** Each program's run, started at once: one after the other within a language, the languages side by side. */
const runs = new Map<DocProgram, Promise<void>>();

function startRuns(): void {
  for (const language of LANGUAGES) {
    let previous: Promise<void> = Promise.resolve();
    for (const program of found.filter((candidate) => candidate.language === language)) {
      const run = previous.catch(() => undefined).then(() => runProgram(language, program));
      // Awaited by the program's test; until then a failure must not count as unhandled.
      run.catch(() => undefined);
      runs.set(program, run);
      previous = run;
    }
  }
}

/** `up`, the page's checks, then `destroy`, which leaves the stack empty for the language's next program whatever happened. */
async function runProgram(language: Language, program: DocProgram): Promise<void> {
  const { yaml, python, go, java, ...shared } = RUNS[program.name];
  const overrides: Record<string, Partial<ProgramRun> | undefined> = { yaml, python, go, java };
  const run: ProgramRun = { ...shared, ...overrides[language] };
  const suite = suites[language];
  const { project, write } = stacks[language];
  write(program);
  const copied = Object.entries(run.files ?? {}).map(([there, here]) => {
    cpSync(path.join(repoRoot, here), path.join(project.workDir, there), { recursive: true });
    return path.join(project.workDir, there);
  });
  // Each program meets the account as seeded, as on a reader's first run: the one before may have moved a file.
  await suite.emulator.admin.reset();
  let destroyed: DestroyResult;
  try {
    await project.stack.setAllConfig({ ...emulatorConfig(suite.emulator), ...(await run.config?.(suite)) });
    const up = await project.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: run.creates });
    await run.check(up.outputs, suite);
  } finally {
    destroyed = await project.stack.destroy();
    for (const file of copied) rmSync(file, { recursive: true, force: true });
  }
  expect(destroyed.summary.resourceChanges).toEqual({ delete: run.creates });
}

test("every program of docs/ has a run here, and every run a program", () => {
  expect([...new Set(found.map((program) => program.name))].sort()).toEqual(Object.keys(RUNS).sort());
  for (const language of ["yaml", "python", "go", "java"] as const) {
    expect(
      Object.keys(RUNS).filter(
        (name) =>
          RUNS[name][language] && !found.some((program) => program.name === name && program.language === language),
      ),
    ).toEqual([]);
  }
});

test("every TypeScript program of docs/ type-checks in the project of README's Install section, with its tsconfig.json", async () => {
  const dir = path.join(stacks.ts.project.workDir, "typecheck");
  mkdirSync(dir);
  const files = found
    .filter((program) => program.language === "ts")
    .map((program) => {
      writeFileSync(path.join(dir, `${program.name}.ts`), program.code);
      return `${program.name}.ts`;
    });
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ extends: "../tsconfig.json", files }));
  // The TypeScript the project's ts-node takes (the repository's, the nearest node_modules).
  expect(await typeCheck(SUPPORTED_TYPESCRIPT[0], dir)).toEqual({ status: 0, stdout: "" });
});

test.each(found.map((program) => [program.name, program.language, program] as const))(
  "the program of %s in %s runs up and destroy against the emulator",
  async (name, language, program) => {
    await (runs.get(program) ?? Promise.reject(new Error(`the program of ${name} in ${language} was never started`)));
  },
);
