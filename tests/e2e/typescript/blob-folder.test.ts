import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// BlobFolder through the real engine: a 300-file directory published with one line of program.

const FILES = 300;
const EXTENSIONS = ["txt", "css", "json", "html", "js"];
/** Past the server's 30 s list cache: listings after this are computed afresh. */
const PAST_LIST_CACHE = 31_000;

/** Each engine operation here walks 300 resources: longer than the suite's limit for one test. */
const THREE_HUNDRED_RESOURCES_MS = 600_000;

const suite = emulatorSuite();

/** "pages/p007.css" style paths in a few subdirectories, each file its own content of >= 1 KiB. */
function siteFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i < FILES; i++) {
    const relative = `${["pages", "assets/img", "assets/css"][i % 3]}/p${String(i).padStart(3, "0")}.${EXTENSIONS[i % EXTENSIONS.length]}`;
    files.set(relative, `file ${relative}\n`.padEnd(1024 + i, "x"));
  }
  return files;
}

/** Resolves once the count-limited faults are used up, however long the engine takes to start on a busy machine. */
async function faultsUsedUp(): Promise<void> {
  for (;;) {
    try {
      return await suite.emulator.admin.waitForFaultsUsedUp(60_000);
    } catch (err) {
      // One wait of the emulator lasts at most a minute.
      if (!String(err).includes("WAIT_TIMEOUT")) throw err;
    }
  }
}

async function postStatuses(): Promise<number[]> {
  return (await suite.emulator.admin.requests()).filter((e) => e.route === "POST /v1/objects").map((e) => e.status);
}

describe("BlobFolder", () => {
  let program: ProgramStack;
  const files = siteFiles();
  const write = (relative: string, content: string) => {
    mkdirSync(path.dirname(path.join(program.workDir, relative)), { recursive: true });
    writeFileSync(path.join(program.workDir, relative), content);
  };
  const site = { directory: "site", prefix: "site" };

  beforeAll(async () => {
    program = suite.keep(await programStack({ program: "blobs", config: emulatorConfig(suite.emulator) }));
    for (const [relative, content] of files) write(`site/${relative}`, content);
    write("clash/a-b.txt", "a".repeat(1024));
    write("clash/a_b.txt", "b".repeat(1024));
  });

  test("two files that make the same object name are refused at preview, naming both", async () => {
    await program.stack.setConfig("folders", { value: JSON.stringify({ clash: { directory: "clash" } }) });
    const failure = await program.stack.preview().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toContain('the files "a-b.txt" and "a_b.txt" both make the object name "a_b_txt"');
    expect(await suite.emulator.admin.requests()).toEqual([]);
  });

  test(
    "up publishes 300 files with the folder's prefix, never more than 4 uploads in flight",
    async () => {
      await suite.emulator.admin.clearRequests();
      await program.stack.setConfig("folders", { value: JSON.stringify({ site }) });
      // The first four uploads are held until all four are in flight: the engine's parallel creates
      // overlap up to the limit however fast or slow the machine.
      await suite.emulator.admin.injectFault({
        match: { method: "POST", path: "/v1/objects" },
        kind: "hold",
        count: 4,
      });
      const running = program.stack.up();
      const endedFirst = running.then(() => {
        throw new Error("the up ended before four uploads were held");
      });
      endedFirst.catch(() => undefined); // awaited through the race below only while it can win
      await Promise.race([faultsUsedUp(), endedFirst]);
      expect(await suite.emulator.admin.releaseHeld()).toBe(4);
      const up = await running;
      // The stack, the component and one object per file.
      expect(up.summary.resourceChanges).toEqual({ create: FILES + 2 });
      // The emulator refuses a fifth concurrent upload with 429: none was refused, none repeated.
      const statuses = await postStatuses();
      expect(statuses).toHaveLength(FILES);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // The emulator refuses a fifth before counting it, so the peak cannot exceed 4: the four held
      // show the uploads did overlap up to the limit, and the statuses above that none went past it.
      expect((await suite.emulator.admin.peakUploadsInFlight())[suite.emulator.accounts[0].accountId]).toBe(4);

      const urls = up.outputs.folders.value.site as Record<string, string>;
      expect(Object.keys(urls).sort()).toEqual([...files.keys()].sort());
      for (const [relative, content] of files) {
        expect(urls[relative]).toContain(`/site/${relative.replace(/[^a-zA-Z0-9_]/g, "_")}_`);
        const response = await fetch(urls[relative]);
        expect(await response.text()).toBe(content);
      }
    },
    THREE_HUNDRED_RESOURCES_MS,
  );

  test(
    "refresh of the 300 objects makes a handful of list requests, not hundreds",
    async () => {
      await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
      await suite.emulator.admin.clearRequests();
      const refresh = await program.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: FILES + 2 });
      const lists = (await suite.emulator.admin.requests()).filter((e) => e.route === "GET /v1/objects");
      expect(lists.length).toBeGreaterThanOrEqual(1);
      expect(lists.length).toBeLessThanOrEqual(5);
    },
    THREE_HUNDRED_RESOURCES_MS,
  );

  test(
    "a preview of the unchanged folder has no changes",
    async () => {
      expect((await program.stack.preview()).changeSummary).toEqual({ same: FILES + 2 });
    },
    THREE_HUNDRED_RESOURCES_MS,
  );

  test(
    "destroy deletes every object of the folder",
    async () => {
      await program.stack.destroy();
      await suite.emulator.admin.advanceClock(PAST_LIST_CACHE);
      expect(await suite.api.listAllObjects("site")).toEqual([]);
    },
    THREE_HUNDRED_RESOURCES_MS,
  );
});
