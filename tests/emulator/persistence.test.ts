import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FileStateStore } from "../../emulator/store/file-store";
import { MemoryStateStore } from "../../emulator/store/memory-store";
import { buildSeedData } from "../../emulator/seed";
import { KEYS, caller, expectSuccess } from "./helpers";

let dir: string;
const running: RunningEmulator[] = [];

async function start(dataDir?: string): Promise<RunningEmulator> {
  const emulator = await startEmulator(dataDir ? { dataDir } : {});
  running.push(emulator);
  return emulator;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sq-emulator-"));
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
  rmSync(dir, { recursive: true, force: true });
});

test("with a data directory, a restarted emulator sees the same accounts, databases, workspaces and objects", async () => {
  const first = await start(dir);
  const platform = caller(first.platformUrl);
  const blob = caller(first.blobUrl);
  const db = expectSuccess(await platform("POST", "/v2/databases", { json: { name: "kept", memory: 512, type: "redis", version: "7.0" } }));
  const ws = expectSuccess(await platform("POST", "/v2/workspaces", { key: KEYS.bob, json: { name: "kept_team" } }));
  const form = new FormData();
  form.append("file", new Blob([Buffer.alloc(2048, 7)], { type: "image/png" }));
  const object = expectSuccess(await blob("POST", "/v1/objects?name=kept", { body: form }));
  await first.close();

  const second = await start(dir);
  const platform2 = caller(second.platformUrl);
  expect(expectSuccess(await platform2("GET", `/v2/databases/${db.id}`)).name).toBe("kept");
  expect(expectSuccess(await platform2("GET", `/v2/workspaces/${ws.id}`, { key: KEYS.bob })).name).toBe("kept_team");
  const ids = expectSuccess(await caller(second.blobUrl)("GET", "/v1/objects?prefix=kept")).objects.map((o: { id: string }) => o.id);
  expect(ids).toEqual([object.id]);
  // Atomic writes leave only the state file behind.
  expect(readdirSync(dir)).toEqual(["state.json"]);
});

test("reset re-seeds the file too", async () => {
  const first = await start(dir);
  expectSuccess(await caller(first.platformUrl)("POST", "/v2/databases", { json: { name: "gone", memory: 512, type: "redis", version: "7.0" } }));
  await first.admin.reset();
  await first.close();
  const second = await start(dir);
  expect(expectSuccess(await caller(second.platformUrl)("GET", "/v2/users/me")).databases).toHaveLength(2);
});

test("without a data directory, state lives only in that process", async () => {
  const first = await start();
  expectSuccess(await caller(first.platformUrl)("POST", "/v2/workspaces", { json: { name: "ephemeral" } }));
  const second = await start();
  expect(expectSuccess(await caller(second.platformUrl)("GET", "/v2/workspaces"))).toHaveLength(1);
});

describe("state stores", () => {
  test("both implementations round-trip the state document", () => {
    const data = buildSeedData(Date.parse("2030-01-01T00:00:00Z"));
    for (const store of [new MemoryStateStore(), new FileStateStore(dir)]) {
      expect(store.load()).toBeUndefined();
      store.save(data);
      expect(store.load()).toEqual(data);
    }
    expect(new FileStateStore(dir).load()).toEqual(data);
  });

  test("a state file of another format version is refused with a clear message", () => {
    writeFileSync(join(dir, "state.json"), JSON.stringify({ formatVersion: 99 }));
    expect(() => new FileStateStore(dir).load()).toThrow(/state format 99/);
  });
});
