import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { blobFolderSyncHandler } from "../../../provider/resources/blob-folder-sync";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The BlobFolderSync handler's paths the engine cannot set up exactly, called directly against the
// emulator: an upload refused midway (what was done is recorded, the rest left to the next update),
// a delete that fails (kept as a leftover until one succeeds), and a refresh just after a sync
// (a listing cached before it must not drop what it uploaded).

const PAST_LIST_CACHE = 31_000;
const PROVIDER = "serialized-stub";
const env = providerAgainstEmulator({ resetBeforeEach: false });

let directory: string;

function write(relative: string, content: string) {
  const file = path.join(directory, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** The inputs as the check gives them: the manifest read from the directory. */
async function checked(prefix: string): Promise<Record<string, any>> {
  const { inputs, failures } = await blobFolderSyncHandler.check({}, { directory, prefix, __provider: PROVIDER });
  expect(failures).toEqual([]);
  return inputs as Record<string, any>;
}

async function listedFresh(prefix: string): Promise<string[]> {
  await env.emulator.admin.advanceClock(PAST_LIST_CACHE);
  return (await env.api.listAllObjects(prefix)).map((o) => o.id).sort();
}

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "synced-"));
  write("index.html", "index".padEnd(1500, "-"));
  write("css/site.css", "css".padEnd(2000, "-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

test("the check hashes every file and refuses the files the API would refuse, naming them", async () => {
  const inputs = await checked("sy_check");
  expect(Object.keys(inputs.files).sort()).toEqual(["css/site.css", "index.html"]);
  expect(inputs.files["index.html"]).toMatch(/^[0-9a-f]{64}$/);

  write("tiny.txt", "small");
  const { failures } = await blobFolderSyncHandler.check({}, { directory, prefix: "sy_check" });
  expect(failures).toEqual([
    {
      property: "directory",
      reason: expect.stringContaining('got "tiny.txt" of 5 bytes (from 1024 to 100000000)'),
    },
  ]);
  expect(await env.count("POST /v1/objects")).toBe(0);
});

test("an upload refused midway records what was stored; the next update uploads only the rest", async () => {
  await env.emulator.admin.injectFault({
    match: { method: "POST", path: "/v1/objects" },
    kind: "status",
    status: 400,
    code: "INVALID_FILE",
    count: 1,
  });
  const inputs = await checked("sy_partial");
  const failure = (await blobFolderSyncHandler.create(inputs).then(
    () => undefined,
    (err: unknown) => err,
  )) as { message: string; id: string; properties: Record<string, any> };
  expect(failure.message).toMatch(/^sync of folder "sy_partial" \(.*\) failed for 1 file\(s\): upload of "/);
  expect(failure.id).toBe(`sy_partial/${directory}`);
  const recorded = Object.keys(failure.properties.objects);
  expect(recorded).toHaveLength(1);
  expect(failure.properties.__provider).toBe(PROVIDER);
  expect(await listedFresh("sy_partial")).toEqual(Object.values(failure.properties.objects));

  const posts = await env.count("POST /v1/objects");
  const outs = (await blobFolderSyncHandler.update(failure.id, failure.properties, inputs)).outs as Record<string, any>;
  expect(await env.count("POST /v1/objects")).toBe(posts + 1);
  expect(Object.keys(outs.objects).sort()).toEqual(["css/site.css", "index.html"]);
  expect(await listedFresh("sy_partial")).toEqual(Object.values(outs.objects).sort());
});

test("a failed delete of a replaced object is kept as a leftover, and the next update deletes it", async () => {
  const created = await blobFolderSyncHandler.create(await checked("sy_left"));
  const replaced = created.outs.objects["index.html"];
  write("index.html", "index v2".padEnd(1500, "-"));
  await env.emulator.admin.injectFault({
    match: { method: "DELETE", path: "/v1/objects" },
    kind: "status",
    status: 400,
    code: "INVALID_OBJECT",
    count: 1,
  });
  const inputs = await checked("sy_left");
  const failure = (await blobFolderSyncHandler.update(created.id, created.outs, inputs).then(
    () => undefined,
    (err: unknown) => err,
  )) as { properties: Record<string, any> };
  expect(failure.properties.leftovers).toEqual([replaced]);
  expect(await blobFolderSyncHandler.diff(created.id, failure.properties, inputs)).toMatchObject({ changes: true });

  const outs = (await blobFolderSyncHandler.update(created.id, failure.properties, inputs)).outs as Record<string, any>;
  expect(outs.leftovers).toBeUndefined();
  expect(await listedFresh("sy_left")).toEqual(Object.values(outs.objects).sort());
  expect(await blobFolderSyncHandler.diff(created.id, outs, inputs)).toMatchObject({ changes: false });
});

test("a refresh right after a sync keeps what a listing cached before it does not show", async () => {
  // A listing cached now, before the upload, shows none of the objects.
  await env.api.listAllObjects("sy_recent");
  const created = await blobFolderSyncHandler.create(await checked("sy_recent"));
  const read = await blobFolderSyncHandler.read(created.id, created.outs);
  expect(read.props.objects).toEqual(created.outs.objects);
});
