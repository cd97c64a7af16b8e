import { systemClock } from "../../../provider/client/clock";
import { LOST_UPLOAD_LOOK_EVERY_MS } from "../../../provider/lifecycle/look-again";
import { useClock } from "../../../provider/runtime";
import { blobObjectHandler } from "../../../provider/resources/blob-object";
import { ASSET_SIG, SIG_KEY } from "../../../provider/signatures";
import { FakeClock } from "../helpers/fake-clock";
import { StubServer } from "../helpers/stub-server";

// Servers whose clocks the emulator, whose clock always flows, cannot show. The provider waits on
// a fake clock: its waits take no real time, and the stub's Date header follows that clock.

let stub: StubServer;
let clock: FakeClock;
const saved = { ...process.env };

beforeAll(async () => {
  stub = await StubServer.start();
  process.env.SQUARECLOUD_API_KEY = "1-unit";
  process.env.SQUARECLOUD_BLOB_URL = stub.url;
  clock = new FakeClock();
  useClock(clock);
});

afterAll(async () => {
  useClock(systemClock);
  process.env = saved;
  await stub.close();
});

beforeEach(() => {
  stub.reset();
  clock.sleeps.length = 0;
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

test("a lost upload whose server's clock stands still fails after a bounded wait, saying how to adopt what may exist", async () => {
  const stillAt = new Date(clock.now()).toUTCString();
  stub.handler = (req, res) => {
    const headers = { "content-type": "application/json", date: stillAt };
    if (req.method === "POST")
      return void res.writeHead(502, headers).end(JSON.stringify({ status: "error", code: "BAD_GATEWAY" }));
    res.writeHead(200, headers).end(JSON.stringify({ status: "success", response: { objects: [] } }));
  };
  const creating = blobObjectHandler.create({
    name: "still",
    mimeType: "text/plain",
    source: { [SIG_KEY]: ASSET_SIG, text: "still:".padEnd(1500, "-") },
    __provider: "serialized-stub",
  });
  await expect(creating).rejects.toThrow(
    /did not move past its 30 s list cache within 60 s.*An object may exist: .*set adoptId to its id/,
  );
  expect(stub.seen.filter((r) => r.method === "POST")).toHaveLength(1);
  // A minute on the provider's clock, listing every few seconds, then it gave up.
  expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(60_000);
  expect(clock.sleeps.every((ms) => ms <= LOST_UPLOAD_LOOK_EVERY_MS)).toBe(true);
  expect(stub.seen.filter((r) => r.method === "GET")).toHaveLength(clock.sleeps.length + 1);
});

// A server that follows the reference strictly: ids may lack the optional -ex<days> suffix, and only
// the listing's expires_at tells that an object expires. Its clock passes its list cache at each
// listing, so a search that misses the object stops looking at once and uploads again, instead of
// after 30 s.
test.each([
  ["without", ""],
  ["with", "-ex2"],
])(
  "a lost upload with expireDays, its id %s the -ex suffix, is found by its listed expiry and not sent again",
  async (_form, suffix) => {
    const id = `1/strict_abcd1234-07ee${suffix}.txt`;
    let aheadMs = 0;
    stub.handler = (req, res) => {
      const created = clock.now() + aheadMs;
      const headers = { "content-type": "application/json", date: new Date(created).toUTCString() };
      if (req.method === "POST")
        return void res.writeHead(502, headers).end(JSON.stringify({ status: "error", code: "BAD_GATEWAY" }));
      aheadMs += 60_000;
      const object = {
        id,
        size: 1500,
        created_at: new Date(created).toISOString(),
        expires_at: new Date(created + 2 * 86_400_000).toISOString(),
      };
      res.writeHead(200, headers).end(JSON.stringify({ status: "success", response: { objects: [object] } }));
    };
    const created = await blobObjectHandler.create({
      name: "strict",
      mimeType: "text/plain",
      expireDays: 2,
      source: { [SIG_KEY]: ASSET_SIG, text: `strict${suffix}:`.padEnd(1500, "-") },
      __provider: "serialized-stub",
    });
    expect(created.id).toBe(id);
    expect(stub.seen.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  },
);
