import { createClient } from "../../../../provider/client";
import type { SquareCloudClient } from "../../../../provider/client";
import { FakeClock } from "../../helpers/fake-clock";
import { reply, StubServer } from "../../helpers/stub-server";

/** Blob endpoints: behaviour the emulator cannot make observable, concurrency and paging. */

let stub: StubServer;

beforeAll(async () => {
  stub = await StubServer.start();
});

afterAll(() => stub.close());

beforeEach(() => stub.reset());

function clientFor(clock: FakeClock, apiKey = "100001-key"): SquareCloudClient {
  return createClient({ apiKey, platformUrl: stub.url, blobUrl: stub.url }, { clock, random: () => 0.5 });
}

describe("blob endpoints", () => {
  it("keeps at most 4 uploads of one account in flight, across clients", async () => {
    let inFlight = 0;
    let peak = 0;
    stub.handler = (req, res, body) => {
      peak = Math.max(peak, ++inFlight);
      setTimeout(() => {
        inFlight--;
        reply(200, { status: "success", response: { id: "1/x", name: "x", size: 2048, url: "https://cdn/1/x" } })(
          req,
          res,
          body,
        );
      }, 40);
    };
    const clock = new FakeClock();
    const clients = [clientFor(clock), clientFor(clock)];
    const upload = (client: SquareCloudClient, i: number) =>
      client.uploadObject({ name: `file${i}xx`, content: Buffer.alloc(2048), mimeType: "text/plain" });
    try {
      await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => upload(clients[i % 2], i)));
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
    expect(stub.seen).toHaveLength(8);
    expect(peak).toBe(4);
  });

  it("maps upload options to the query the blob API expects and names itself", async () => {
    stub.handler = reply(200, {
      status: "success",
      response: { id: "1/brand/logo_a-b-ex3.png", name: "logo", prefix: "brand", size: 4, url: "u" },
    });
    const client = clientFor(new FakeClock());
    try {
      await client.uploadObject({
        name: "logo",
        prefix: "brand",
        expireDays: 3,
        securityHash: true,
        autoDownload: false,
        content: Buffer.alloc(4),
        mimeType: "image/png",
      });
    } finally {
      await client.close();
    }
    expect(stub.seen[0].url).toBe("/v1/objects?name=logo&prefix=brand&expire=3&security_hash=true");
    expect(stub.seen[0].headers["user-agent"]).toMatch(/^pulumi-squarecloud\/\d+\.\d+\.\d+/);
  });

  it("follows continuation tokens through every page", async () => {
    const pages = [
      { objects: [{ id: "1/a", size: 1, created_at: "t" }], continuationToken: "p2" },
      { objects: [{ id: "1/b", size: 1, created_at: "t" }], continuationToken: "p3" },
      { objects: [{ id: "1/c", size: 1, created_at: "t" }] },
    ];
    stub.handler = (req, res, body) =>
      reply(200, { status: "success", response: pages[stub.seen.length - 1] })(req, res, body);
    const client = clientFor(new FakeClock());
    try {
      expect((await client.listAllObjects("images")).map((o) => o.id)).toEqual(["1/a", "1/b", "1/c"]);
    } finally {
      await client.close();
    }
    expect(stub.seen.map((r) => r.url)).toEqual([
      "/v1/objects?prefix=images",
      "/v1/objects?prefix=images&continuationToken=p2",
      "/v1/objects?prefix=images&continuationToken=p3",
    ]);
  });

  it("stops when the server hands out the same continuation token twice", async () => {
    stub.handler = reply(200, { status: "success", response: { objects: [], continuationToken: "again" } });
    const client = clientFor(new FakeClock());
    try {
      await expect(client.listAllObjects()).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
    } finally {
      await client.close();
    }
    expect(stub.seen).toHaveLength(2);
  });
});
