import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigMap, OutputMap } from "@pulumi/pulumi/automation";
import { SEED_APPS } from "../../emulator";
import { docFiles, programs, sectionFiles } from "../doc-blocks";
import { repoRoot } from "./engine";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "./emulator-env";
import { projectStack, ProgramStack } from "./stack";

// Every program block of docs/ (`<!-- program: <name> -->`), run as a reader runs it: the project
// of README's Install section, the page's program as index.ts, the package resolved by its name.
// One stack serves them all, one program after the other: `up`, what the page says it does, then
// `destroy`. README.md's own program runs in readme.test.ts, in a project outside the repository.

interface ProgramRun {
  /** Stack config besides the emulator's URLs and key. */
  config?: () => Promise<ConfigMap>;
  /** Repository paths copied into the project, by their path there: what the page says the project holds. */
  files?: Record<string, string>;
  /** What `up` creates, the stack included. */
  creates: number;
  /** What the outputs and the account show after `up`. */
  check(outputs: OutputMap): Promise<void> | void;
}

const suite = emulatorSuite();
const alice = () => suite.emulator.accounts[0];
const RESTORED_VERSION = "2ea6d485-9961-4704-94e7-72635b78bdb6";

const RUNS: Record<string, ProgramRun> = {
  database: {
    creates: 2,
    async check({ sessionsId, sessionsUrl }) {
      expect(sessionsUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
      expect(await suite.api.getDatabase(sessionsId.value)).toMatchObject({ name: "sessions", type: "redis", ram: 512 });
    },
  },
  workspace: {
    creates: 2,
    async check({ teamId, teamApps, teamMembers }) {
      expect(teamApps.value).toEqual(["Alice Website"]);
      expect(teamMembers.value).toEqual([`${alice().name} (owner)`]);
      expect((await suite.api.getWorkspace(teamId.value)).applications.map((app) => app.id)).toEqual([SEED_APPS.aliceWebsite]);
    },
  },
  "workspace-member": {
    config: () => inviteCodeConfig(suite.emulator, { bobInviteCode: suite.emulator.accounts[1] }),
    creates: 3,
    check: ({ bobGroup }) => expect(bobGroup.value).toBe("maintain"),
  },
  "blob-object": {
    creates: 2,
    async check({ pageUrl, pageExpiresAt }) {
      expect(await (await fetch(pageUrl.value)).text()).toContain("<h1>Hello from Pulumi</h1>");
      expect(pageExpiresAt.value).toEqual(expect.any(String));
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
    check: ({ backupUrl, backupTakenAt }) => {
      expect(backupUrl.secret).toBe(true);
      expect(Date.parse(backupTakenAt.value)).not.toBeNaN();
    },
  },
  "database-restore": {
    creates: 2,
    check: ({ restoredVersion }) => expect(restoredVersion.value).toBe(RESTORED_VERSION),
  },
  "app-file-move": {
    creates: 2,
    // Moved: nothing is left at the old path to move.
    check: () => expect(suite.api.moveAppFile(SEED_APPS.aliceWebsite, { path: "index.js", to: "again.js" })).rejects.toMatchObject({ code: "FILE_NOT_FOUND" }),
  },
  "data-sources": {
    creates: 1,
    check({ team, latest, pythonApps }) {
      expect(team.value.name).toBe("platform_team");
      expect(latest.value).toBe("f5f93ab3-3cbc-42b5-b8c0-f6605c64cea9");
      expect(pythonApps.value.apps.map((app: { name: string }) => app.name)).toEqual(["Alice Bot"]);
    },
  },
};

/** Program name -> its page and code, for every page of docs/. */
const found = new Map(docFiles().flatMap((file) => (file.startsWith("docs/") ? [...programs(file)].map(([name, code]) => [name, { file, code }] as const) : [])));

let project: ProgramStack;

beforeAll(async () => {
  const source = mkdtempSync(path.join(tmpdir(), "squarecloud-docs-"));
  try {
    for (const [name, content] of Object.entries(sectionFiles("README.md", "Install"))) writeFileSync(path.join(source, name), content);
    project = suite.keep(await projectStack(source));
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
});

test("every program of docs/ has a run here", () => {
  expect([...found.keys()].sort()).toEqual(Object.keys(RUNS).sort());
});

test.each(Object.keys(RUNS))("the program of %s runs up and destroy against the emulator", async (name) => {
  const run = RUNS[name];
  const program = found.get(name);
  if (!program) throw new Error(`no page of docs/ has <!-- program: ${name} -->`);
  writeFileSync(path.join(project.workDir, "index.ts"), program.code);
  const copied = Object.entries(run.files ?? {}).map(([there, here]) => {
    cpSync(path.join(repoRoot, here), path.join(project.workDir, there), { recursive: true });
    return path.join(project.workDir, there);
  });
  try {
    await project.stack.setAllConfig({ ...emulatorConfig(suite.emulator), ...(await run.config?.()) });
    const up = await project.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: run.creates });
    await run.check(up.outputs);
    expect((await project.stack.destroy()).summary.resourceChanges).toEqual({ delete: run.creates });
  } finally {
    for (const file of copied) rmSync(file, { recursive: true, force: true });
  }
});
