import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, hostname, userInfo } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { SEED_ACCOUNTS } from "../../../emulator";
import { pulumiEngine } from "../harness/engine";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// GitOps: a stack created in one checkout is moved (state exported and imported into another
// backend) to a second checkout of the same program at another absolute path, as a CI runner or a
// colleague's machine would hold it. There it previews with no changes and destroys cleanly, and
// nothing in its state names the first checkout, the machine or the user.

/** The files the program uploads, by their paths relative to the project. */
const SOURCE_FILES = ["assets/logo.txt", "assets/notes.txt", "site/index.html", "site/css/site.css"];

const suite = emulatorSuite();

describe("a stack moved to another checkout", () => {
  let checkoutA: ProgramStack;
  let checkoutB: string;
  let stackB: Stack;
  let exported: string;
  let ids: Record<string, string>;

  beforeAll(async () => {
    const bob = SEED_ACCOUNTS.bob;
    checkoutA = suite.keep(
      await programStack({
        program: "portable",
        config: {
          ...emulatorConfig(suite.emulator),
          ...(await inviteCodeConfig(suite.emulator, { memberCode: suite.emulator.accounts[1] })),
          memberId: { value: bob.accountId },
        },
      }),
    );
    const write = (relative: string, content: string) => {
      mkdirSync(path.dirname(path.join(checkoutA.workDir, relative)), { recursive: true });
      writeFileSync(path.join(checkoutA.workDir, relative), content);
    };
    write("assets/logo.txt", "logo ".repeat(300));
    write("assets/notes.txt", "notes ".repeat(300));
    write("site/index.html", "<p>home</p>".padEnd(2048, " "));
    write("site/css/site.css", "body {}".padEnd(1500, " "));
    checkoutB = `${checkoutA.workDir}-checkout-b`;
  });

  afterAll(async () => {
    // Normally destroyed from B; if a test failed before that, A's dispose destroys what is left.
    rmSync(checkoutB, { recursive: true, force: true });
  });

  test("checkout A: up creates every resource", async () => {
    const up = await checkoutA.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 9 });
    ids = up.outputs.ids.value;
    expect(Object.keys(ids).sort()).toEqual(["cache", "logo", "member", "notes", "team"]);
  });

  test("the exported state names neither checkout A's path, nor the machine, nor the user", async () => {
    // What `pulumi stack export` writes: the checkpoint's deployment, secrets still encrypted.
    // (The Automation API's exportStack decrypts them; it is checked as well.)
    const checkpoint = JSON.parse(checkoutA.checkpoint()).checkpoint;
    exported = JSON.stringify({ version: 3, deployment: checkpoint.latest });
    expect(exported).not.toContain(suite.emulator.accounts[0].apiKey);
    // A host or user name counts as a whole word: a short one also occurs inside ids and ciphertext.
    const word = (name: string) =>
      new RegExp(`(^|[\\s"'/@:=,])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[\\s"'/@:.,])`);
    for (const text of [exported, JSON.stringify(await checkoutA.stack.exportStack()), checkoutA.backendText()]) {
      expect(text).not.toContain(checkoutA.workDir);
      expect(text).not.toContain(`${homedir()}/`);
      expect(text).not.toMatch(word(hostname()));
      expect(text).not.toMatch(word(homedir()));
      expect(text).not.toMatch(word(userInfo().username));
    }
    // The files are in state by their paths relative to the project, also those given absolute.
    for (const relative of SOURCE_FILES) expect(exported).toContain(`"${relative}"`);
  });

  test("an older state holding the files' absolute paths, as states written before did, previews with no changes", async () => {
    let old = exported;
    for (const relative of SOURCE_FILES)
      old = old.split(`"path":"${relative}"`).join(`"path":${JSON.stringify(path.join(checkoutA.workDir, relative))}`);
    expect(old.split(checkoutA.workDir).length - 1).toBeGreaterThanOrEqual(SOURCE_FILES.length);
    await checkoutA.stack.importStack(JSON.parse(old));
    try {
      const preview = await checkoutA.stack.preview();
      expect(preview.changeSummary).toEqual({ same: 9 });
    } finally {
      await checkoutA.stack.importStack(JSON.parse(exported));
    }
  });

  test("checkout B: the program and its stack settings copied elsewhere, the state imported, previews with no changes", async () => {
    // What a clone holds: the program, its files and Pulumi.<stack>.yaml (config, secrets encrypted
    // with the passphrase, and its salt); not the state, which moves by export and import.
    cpSync(checkoutA.workDir, checkoutB, { recursive: true, filter: (source) => path.basename(source) !== ".state" });
    mkdirSync(path.join(checkoutB, ".state"));
    const workspace = await LocalWorkspace.create({
      workDir: checkoutB,
      pulumiCommand: await pulumiEngine(),
      envVars: { ...checkoutA.stack.workspace.envVars, PULUMI_BACKEND_URL: `file://${path.join(checkoutB, ".state")}` },
    });
    stackB = await Stack.create("e2e", workspace);
    await stackB.importStack(JSON.parse(exported));

    await suite.emulator.admin.clearRequests();
    const preview = await stackB.preview();
    expect(preview.changeSummary).toEqual({ same: 9 });
    expect((await suite.emulator.admin.requests()).filter((e) => e.method !== "GET")).toEqual([]);
  });

  test("checkout B destroys everything, and checkout A's state is left with nothing to do", async () => {
    const destroy = await stackB.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 9 });
    await expect(suite.api.getDatabase(ids.cache)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
    await expect(suite.api.getWorkspace(ids.team)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
    await suite.emulator.admin.advanceClock(31_000);
    expect((await suite.api.listAllObjects()).filter((o) => o.id.includes("/port"))).toEqual([]);
    // A has the old state; a refresh there finds every resource gone, so A's disposal deletes nothing twice.
    const refresh = await checkoutA.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 7 });
  });
});
