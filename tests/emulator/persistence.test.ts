import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FileStateStore } from "../../emulator/store/file-store";
import { MemoryStateStore } from "../../emulator/store/memory-store";
import { FileContentStore, MemoryContentStore } from "../../emulator/store/content-store";
import { buildSeedData } from "../../emulator/seed";
import { KEYS, caller, expectSuccess } from "./helpers";

let dir: string;
const running: RunningEmulator[] = [];

async function start(dataDir?: string): Promise<RunningEmulator> {
  const emulator = await startEmulator(dataDir ? { dataDir, admin: true } : { admin: true });
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
  const db = expectSuccess(
    await platform("POST", "/v2/databases", { json: { name: "kept", memory: 512, type: "redis", version: "7.0" } }),
  );
  const ws = expectSuccess(await platform("POST", "/v2/workspaces", { key: KEYS.bob, json: { name: "kept_team" } }));
  const form = new FormData();
  form.append("file", new Blob([Buffer.alloc(2048, 7)], { type: "image/png" }));
  const object = expectSuccess(await blob("POST", "/v1/objects?name=kept", { body: form }));
  await first.close();

  const second = await start(dir);
  const platform2 = caller(second.platformUrl);
  expect(expectSuccess(await platform2("GET", `/v2/databases/${db.id}`)).name).toBe("kept");
  expect(expectSuccess(await platform2("GET", `/v2/workspaces/${ws.id}`, { key: KEYS.bob })).name).toBe("kept_team");
  const ids = expectSuccess(await caller(second.blobUrl)("GET", "/v1/objects?prefix=kept")).objects.map(
    (o: { id: string }) => o.id,
  );
  expect(ids).toEqual([object.id]);
  // Object bytes are kept beside the state, and served again after the restart.
  const served = await fetch(`${second.blobUrl}/public/${object.id}`);
  expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.alloc(2048, 7))).toBe(true);
  // Atomic writes leave only the state file and the object contents behind.
  expect(readdirSync(dir).sort()).toEqual(["objects", "state.json"]);
  expect(readdirSync(join(dir, "objects"))).toHaveLength(1);
});

test("a CDN fetch saves the state only when it finds objects expired", async () => {
  const emulator = await start(dir);
  const blob = caller(emulator.blobUrl);
  const upload = async (query: string) => {
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(2048, 7)], { type: "image/png" }));
    return expectSuccess(await blob("POST", `/v1/objects?${query}`, { body: form }));
  };
  const kept = await upload("name=kept");
  const expiring = await upload("name=brief&expire=1");
  await emulator.admin.advanceClock(86_400_000 / 2);
  // Saving serializes the whole state: a fetch that changed nothing must not pay for it.
  const save = jest.spyOn(FileStateStore.prototype, "save");
  expect((await fetch(`${emulator.blobUrl}/public/${kept.id}`)).status).toBe(200);
  expect(save).not.toHaveBeenCalled();
  await emulator.admin.advanceClock(86_400_000);
  expect((await fetch(`${emulator.blobUrl}/public/${expiring.id}`)).status).toBe(404);
  expect(save).toHaveBeenCalledTimes(1);
  save.mockRestore();
});

test("reset re-seeds the file too", async () => {
  const first = await start(dir);
  expectSuccess(
    await caller(first.platformUrl)("POST", "/v2/databases", {
      json: { name: "gone", memory: 512, type: "redis", version: "7.0" },
    }),
  );
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

test("state saved before app snapshots kept their files still lists and serves them, as empty archives", async () => {
  const data = buildSeedData(Date.now());
  const legacy = {
    ...data,
    appSnapshots: data.appSnapshots.map(({ files: _files, ...rest }) => ({ ...rest, size: 1_482_113 })),
  };
  writeFileSync(join(dir, "state.json"), JSON.stringify(legacy));
  const emulator = await start(dir);
  const [entry] = expectSuccess(await caller(emulator.platformUrl)("GET", "/v2/users/snapshots?scope=applications"));
  const app = data.appSnapshots.find((s) => s.appId === entry.name)!;
  const archive = await fetch(
    `${emulator.platformUrl}/snapshots/applications/${app.ownerId}/${entry.name}.zip?${entry.key}`,
  );
  const bytes = Buffer.from(await archive.arrayBuffer());
  // An empty ZIP is its end-of-central-directory record alone: 22 bytes, and the listing says so.
  expect({ status: archive.status, size: bytes.length, listed: entry.size }).toEqual({
    status: 200,
    size: 22,
    listed: 22,
  });
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

describe("content stores", () => {
  test.each([
    ["memory", () => new MemoryContentStore(5000)],
    ["file", () => new FileContentStore(dir, 5000)],
  ])("%s: keeps bytes by object id, drops the oldest past the bound", (_kind, make) => {
    const store = make();
    store.put("1/a_x.txt", Buffer.alloc(2000, 1));
    store.put("1/b_x.txt", Buffer.alloc(2000, 2));
    expect(store.get("1/a_x.txt")?.equals(Buffer.alloc(2000, 1))).toBe(true);
    store.put("1/c_x.txt", Buffer.alloc(2000, 3));
    expect(store.get("1/a_x.txt")).toBeUndefined();
    expect(store.get("1/b_x.txt")).toBeDefined();
    expect(store.get("1/c_x.txt")).toBeDefined();
    store.delete("1/b_x.txt");
    expect(store.get("1/b_x.txt")).toBeUndefined();
    store.put("1/d_x.txt", Buffer.alloc(2000, 4));
    expect(store.get("1/c_x.txt")).toBeDefined();
    store.clear();
    expect(store.get("1/d_x.txt")).toBeUndefined();
  });

  test("reset drops the kept bytes with the objects", async () => {
    const emulator = await start(dir);
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(2048, 9)], { type: "text/plain" }));
    const object = expectSuccess(await caller(emulator.blobUrl)("POST", "/v1/objects?name=wiped", { body: form }));
    await emulator.admin.reset();
    expect(readdirSync(join(dir, "objects"))).toEqual([]);
    expect((await fetch(`${emulator.blobUrl}/public/${object.id}`)).status).toBe(404);
  });
});
