import { blobObjectHandler } from "../../../provider/resources/blob-object";
import { ASSET_SIG, ASSET_SIG_KEY } from "../../../provider/schemas/blob-object";
import { StubServer } from "../helpers/stub-server";

// A server whose Date header stands still: what the emulator, whose clock always flows, cannot show.

let stub: StubServer;
const saved = { ...process.env };

beforeAll(async () => {
  stub = await StubServer.start();
  process.env.SQUARECLOUD_API_KEY = "1-unit";
  process.env.SQUARECLOUD_BLOB_URL = stub.url;
});

afterAll(async () => {
  process.env = saved;
  await stub.close();
});

test("a lost upload whose server's clock stands still fails after a bounded wait, saying how to adopt what may exist", async () => {
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
  // The local clock jumps a minute and more at the first listing, so the bound is reached at once.
  const realNow = Date.now.bind(Date);
  let jumpMs = 0;
  jest.spyOn(Date, "now").mockImplementation(() => realNow() + jumpMs);
  stub.handler = (req, res) => {
    const headers = { "content-type": "application/json", date: "Thu, 01 Jan 2026 00:00:00 GMT" };
    if (req.method === "POST") return void res.writeHead(502, headers).end(JSON.stringify({ status: "error", code: "BAD_GATEWAY" }));
    jumpMs = 61_000;
    res.writeHead(200, headers).end(JSON.stringify({ status: "success", response: { objects: [] } }));
  };
  const creating = blobObjectHandler.create({
    name: "still",
    mimeType: "text/plain",
    source: { [ASSET_SIG_KEY]: ASSET_SIG, text: "still:".padEnd(1500, "-") },
    __provider: "serialized-stub",
  });
  await expect(creating).rejects.toThrow(/An object may exist: .*set adoptId to its id/);
  expect(stub.seen.filter((r) => r.method === "POST")).toHaveLength(1);
  jest.restoreAllMocks();
}, 20_000);

// A server that follows the spec strictly: ids may lack the optional -ex<days> suffix, and only
// the listing's expires_at tells that an object expires. Its clock passes its list cache at each
// listing, so a search that misses the object stops looking at once and uploads again, instead of
// after 30 s; it never goes back between tests.
let aheadMs = 0;
test.each([
  ["without", ""],
  ["with", "-ex2"],
])("a lost upload with expireDays, its id %s the -ex suffix, is found by its listed expiry and not sent again", async (_form, suffix) => {
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
  stub.reset();
  const id = `1/strict_abcd1234-07ee${suffix}.txt`;
  stub.handler = (req, res) => {
    const created = Date.now() + aheadMs;
    const headers = { "content-type": "application/json", date: new Date(created).toUTCString() };
    if (req.method === "POST") return void res.writeHead(502, headers).end(JSON.stringify({ status: "error", code: "BAD_GATEWAY" }));
    aheadMs += 60_000;
    const object = { id, size: 1500, created_at: new Date(created).toISOString(), expires_at: new Date(created + 2 * 86_400_000).toISOString() };
    res.writeHead(200, headers).end(JSON.stringify({ status: "success", response: { objects: [object] } }));
  };
  const created = await blobObjectHandler.create({
    name: "strict",
    mimeType: "text/plain",
    expireDays: 2,
    source: { [ASSET_SIG_KEY]: ASSET_SIG, text: `strict${suffix}:`.padEnd(1500, "-") },
    __provider: "serialized-stub",
  });
  expect(created.id).toBe(id);
  expect(stub.seen.filter((r) => r.method === "POST")).toHaveLength(1);
  jest.restoreAllMocks();
});
