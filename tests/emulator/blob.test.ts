import { request as httpRequest, type ClientRequest } from "node:http";
import { SEED_ACCOUNTS, SEED_BLOB_OBJECTS } from "../../emulator";
import { KEYS, expectError, expectSuccess, fileForm, sendAndForget, useEmulator, type CallOptions } from "./helpers";

const env = useEmulator();
const DAY = 86_400_000;
const ID_SHAPE =
  /^(\d+)\/(?:([a-zA-Z0-9_]{3,32})\/)?([a-zA-Z0-9_]{3,32})_([a-z0-9]{8})-([0-9a-f]+)(-ex\d+)?\.([a-z0-9]+)$/;

function upload(query: string, form: FormData = fileForm(2048, "image/png"), options: CallOptions = {}) {
  return env.blob("POST", `/v1/objects${query}`, { body: form, ...options });
}

async function listIds(query = "", key: string = KEYS.alice): Promise<string[]> {
  return expectSuccess(await env.blob("GET", `/v1/objects${query}`, { key })).objects.map((o: { id: string }) => o.id);
}

describe("POST /v1/objects (upload)", () => {
  test("stores the file and answers {id, name, prefix, size, url}", async () => {
    const object = expectSuccess(await upload("?name=logo&prefix=brand"));
    expect(object).toEqual({
      id: expect.any(String),
      name: "logo",
      prefix: "brand",
      size: 2048,
      url: `${env.emu.blobUrl}/public/${object.id}`,
    });
    const [, accountId, prefix, name, , , expiry, extension] = ID_SHAPE.exec(object.id) ?? [];
    expect({ accountId, prefix, name, expiry, extension }).toEqual({
      accountId: SEED_ACCOUNTS.alice.accountId,
      prefix: "brand",
      name: "logo",
      expiry: undefined,
      extension: "png",
    });
  });

  test("without prefix, with expiry and with security_hash", async () => {
    const plain = expectSuccess(await upload("?name=notes", fileForm(1024, "text/plain")));
    expect(plain.prefix).toBeUndefined();
    expect(plain.id).toMatch(new RegExp(`^${SEED_ACCOUNTS.alice.accountId}/notes_[a-z0-9]{8}-[0-9a-f]{4}\\.txt$`));
    const expiring = expectSuccess(await upload("?name=tmpfile&expire=7", fileForm(1024, "application/json")));
    expect(expiring.id).toMatch(/-ex7\.json$/);
    const hashed = expectSuccess(await upload("?name=secret&security_hash=true&auto_download=true"));
    expect(ID_SHAPE.exec(hashed.id)?.[5]).toHaveLength(32);
  });

  test("plain ids: an expiring upload's id has no -ex<days> suffix, and only its listing tells the expiry", async () => {
    await env.emu.admin.setObjectIds("plain");
    const expiring = expectSuccess(
      await upload("?name=tmpfile&prefix=plainids&expire=7", fileForm(1024, "application/json")),
    );
    expect(expiring.id).toMatch(
      new RegExp(`^${SEED_ACCOUNTS.alice.accountId}/plainids/tmpfile_[a-z0-9]{8}-[0-9a-f]{4}\\.json$`),
    );
    const [listed] = expectSuccess(await env.blob("GET", "/v1/objects?prefix=plainids")).objects;
    expect(Date.parse(listed.expires_at) - Date.parse(listed.created_at)).toBe(7 * DAY);
    // The form holds until a reset, which returns to the one the emulator was started with.
    await env.emu.admin.reset();
    expect(expectSuccess(await upload("?name=tmpfile&expire=7", fileForm(1024, "application/json"))).id).toMatch(
      /-ex7\.json$/,
    );
  });

  test("an unknown id form is 400 INVALID_OBJECT_IDS", async () => {
    await expect(env.emu.admin.setObjectIds("short" as "plain")).rejects.toThrow(/400 INVALID_OBJECT_IDS/);
  });

  test.each([
    ["", "INVALID_OBJECT_NAME"],
    ["?name=ab", "INVALID_OBJECT_NAME"],
    ["?name=bad-name", "INVALID_OBJECT_NAME"],
    ["?name=okname&prefix=a/b", "INVALID_OBJECT_PREFIX"],
    ["?name=okname&prefix=x", "INVALID_OBJECT_PREFIX"],
    ["?name=okname&expire=0", "INVALID_OBJECT_EXPIRE"],
    ["?name=okname&expire=366", "INVALID_OBJECT_EXPIRE"],
    ["?name=okname&expire=soon", "INVALID_OBJECT_EXPIRE"],
  ])("query %s is 400 %s", async (query, code) => {
    expectError(await upload(query), 400, code);
  });

  test("file problems: no multipart, no `file` part, disallowed MIME type, too small", async () => {
    expectError(await env.blob("POST", "/v1/objects?name=okname", { json: { file: "x" } }), 400, "INVALID_FILE");
    expectError(await upload("?name=okname", fileForm(2048, "image/png", "document")), 400, "INVALID_FILE");
    expectError(await upload("?name=okname", fileForm(2048, "application/zip")), 400, "INVALID_FILE_TYPE");
    expectError(await upload("?name=okname", fileForm(1023, "image/png")), 400, "FILE_TOO_SMALL");
    expectSuccess(await upload("?name=okname", fileForm(1024, "image/png")));
  });

  test("a body declared larger than 100 MB is refused with 413 FILE_TOO_LARGE before it is read", async () => {
    const url = new URL(env.emu.blobUrl);
    const response = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: "/v1/objects?name=huge",
          headers: {
            Authorization: KEYS.alice,
            "Content-Type": "multipart/form-data; boundary=xyz",
            "Content-Length": String(101 * 1000 * 1000),
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      req.write("--xyz\r\n");
    });
    expect(response).toEqual({
      status: 413,
      body: { status: "error", code: "FILE_TOO_LARGE", message: expect.any(String) },
    });
  });

  test("a plan without blob storage gets 401 PERMISSION_DENIED", async () => {
    expectError(await upload("?name=okname", undefined, { key: KEYS.carol }), 401, "PERMISSION_DENIED");
  });

  test("more than 4 uploads in flight per account: 429 TOO_MANY_CONCURRENT_UPLOADS", async () => {
    // A no-op fault marks the four: it is taken as each one is routed, in the same tick as its
    // handler takes its slot, so "faults used up" means "four slots taken".
    await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v1/objects" },
      kind: "latency",
      latencyMs: 0,
      count: 4,
    });
    const url = new URL(env.emu.blobUrl);
    const slow: ClientRequest[] = [];
    const settled: Promise<number>[] = [];
    for (let i = 0; i < 4; i++) {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: `/v1/objects?name=slow${i}`,
        headers: {
          Authorization: KEYS.alice,
          "Content-Type": "multipart/form-data; boundary=b0undary",
          "Content-Length": "4096",
        },
      });
      settled.push(
        new Promise((resolve) => {
          req.on("response", (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on("error", () => resolve(0));
        }),
      );
      req.write("--b0undary\r\n"); // the rest never comes while the test runs
      slow.push(req);
    }
    await env.emu.admin.waitForFaultsUsedUp();
    expectError(await upload("?name=fifth"), 429, "TOO_MANY_CONCURRENT_UPLOADS");
    // Other accounts are not affected.
    expectSuccess(await upload("?name=bobs", undefined, { key: KEYS.bob }));
    for (const req of slow) req.destroy();
    await Promise.all(settled);
    // A slot is given back when its connection closes, before the request is logged: once the
    // four are logged (after the fifth and bob's), all four slots are free.
    await env.emu.admin.waitForRequests("POST /v1/objects", 6);
    expectSuccess(await upload("?name=after"));
  });

  test("a latency fault is waited out holding the upload's slot: of 5 slow uploads at once, 4 land and 1 is 429", async () => {
    await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v1/objects" },
      kind: "latency",
      latencyMs: 500,
      count: 5,
    });
    const responses = await Promise.all([0, 1, 2, 3, 4].map((i) => upload(`?name=slow${i}&prefix=together`)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 429]);
    expectError(responses.find((r) => r.status === 429)!, 429, "TOO_MANY_CONCURRENT_UPLOADS");
    const log = (await env.emu.admin.requests()).filter((e) => e.route === "POST /v1/objects");
    expect(log.map((e) => [e.status, e.fault]).sort()).toEqual([
      [200, "latency"],
      [200, "latency"],
      [200, "latency"],
      [200, "latency"],
      [429, "latency"],
    ]);
    expect(await listIds("?prefix=together")).toHaveLength(4);
    expect(await env.emu.admin.peakUploadsInFlight()).toEqual({ [SEED_ACCOUNTS.alice.accountId]: 4 });
    // The slots go with the answers.
    expectSuccess(await upload("?name=after"));
  });

  test("uploads whose clients leave during a latency fault give their slots back", async () => {
    await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v1/objects" },
      kind: "latency",
      latencyMs: 200,
      count: 4,
    });
    // Body-less: the wait comes before the handler, which then takes a slot for a client already gone.
    const gone = [0, 1, 2, 3].map(() =>
      sendAndForget(env.emu.blobUrl, "POST", "/v1/objects?name=gone", {
        headers: { Authorization: KEYS.alice, "Content-Length": "0" },
      }),
    );
    await env.emu.admin.waitForFaultsUsedUp();
    for (const req of gone) req.destroy();
    const log = await env.emu.admin.waitForRequests("POST /v1/objects", 4);
    expect(log.map((e) => e.status)).toEqual([499, 499, 499, 499]);
    expectSuccess(await upload("?name=after"));
  });
});

describe("GET /v1/objects (list)", () => {
  test("lists the account's objects with id, size, created_at and expires_at when expiring", async () => {
    const objects = expectSuccess(await env.blob("GET", "/v1/objects")).objects;
    expect(objects).toEqual([
      { id: SEED_BLOB_OBJECTS.aliceManual, size: 350208, created_at: expect.any(String) },
      { id: SEED_BLOB_OBJECTS.aliceLogo, size: 24576, created_at: expect.any(String) },
      { id: SEED_BLOB_OBJECTS.aliceExport, size: 4096, created_at: expect.any(String), expires_at: expect.any(String) },
    ]);
    expect(await listIds("", KEYS.bob)).toEqual([]);
  });

  test("prefix filters by the start of the name; invalid prefixes are 400 INVALID_OBJECT_PREFIX", async () => {
    expect(await listIds("?prefix=images")).toEqual([SEED_BLOB_OBJECTS.aliceLogo]);
    expect(await listIds("?prefix=ima")).toEqual([SEED_BLOB_OBJECTS.aliceLogo]);
    expect(await listIds("?prefix=nothing")).toEqual([]);
    for (const prefix of ["ab", "a".repeat(33), "bad-prefix", "../x", "%00abc"]) {
      expectError(await env.blob("GET", `/v1/objects?prefix=${prefix}`), 400, "INVALID_OBJECT_PREFIX");
    }
  });

  test("cached for 30 s per account, prefix and token: a fresh upload shows up after the window", async () => {
    const before = await listIds();
    const uploaded = expectSuccess(await upload("?name=fresh"));
    expect(await listIds()).toEqual(before);
    // A different cache key (prefix) computes fresh.
    expect(await listIds("?prefix=fresh")).toEqual([uploaded.id]);
    await env.emu.admin.advanceClock(30_000);
    expect(await listIds()).toContain(uploaded.id);
  });

  test("pages of 1000 objects joined by continuationToken", async () => {
    const total = 1003;
    for (let start = 0; start < total; start += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, total - start) }, () =>
          upload("?name=bulk&prefix=paging", fileForm(1024, "text/plain"), { key: KEYS.bob }),
        ),
      ).then((responses) => {
        for (const r of responses) expect(r.status).toBe(200);
      });
    }
    const first = expectSuccess(await env.blob("GET", "/v1/objects", { key: KEYS.bob }));
    expect(first.objects).toHaveLength(1000);
    expect(first.continuationToken).toEqual(expect.any(String));
    const second = expectSuccess(
      await env.blob("GET", `/v1/objects?continuationToken=${first.continuationToken}`, { key: KEYS.bob }),
    );
    expect(second.objects).toHaveLength(3);
    expect(second.continuationToken).toBeUndefined();
    const ids = [...first.objects, ...second.objects].map((o: { id: string }) => o.id);
    expect(new Set(ids).size).toBe(total);
    expect([...ids].sort()).toEqual(ids);
    // A token is bound to its account.
    expectError(
      await env.blob("GET", `/v1/objects?continuationToken=${first.continuationToken}`),
      400,
      "INVALID_CONTINUATION_TOKEN",
    );
    expectError(await env.blob("GET", "/v1/objects?continuationToken=garbage!"), 400, "INVALID_CONTINUATION_TOKEN");
  }, 30_000);

  test("expired objects disappear once the clock passes expires_at", async () => {
    await env.emu.admin.advanceClock(7 * DAY + 1);
    expect(await listIds()).not.toContain(SEED_BLOB_OBJECTS.aliceExport);
    expectError(
      await env.blob("DELETE", "/v1/objects", { json: { object: SEED_BLOB_OBJECTS.aliceExport } }),
      404,
      "OBJECT_NOT_FOUND",
    );
  });
});

describe("DELETE /v1/objects", () => {
  test("deletes one object; deleting it again is 404 OBJECT_NOT_FOUND", async () => {
    expect((await env.blob("DELETE", "/v1/objects", { json: { object: SEED_BLOB_OBJECTS.aliceLogo } })).body).toEqual({
      status: "success",
    });
    expectError(
      await env.blob("DELETE", "/v1/objects", { json: { object: SEED_BLOB_OBJECTS.aliceLogo } }),
      404,
      "OBJECT_NOT_FOUND",
    );
    expect(await listIds("?prefix=images")).toEqual([]);
  });

  test.each([
    [{ object: "not-an-id" }],
    [{ object: `${SEED_ACCOUNTS.alice.accountId}/../etc/passwd` }],
    [{ object: `${SEED_ACCOUNTS.alice.accountId}/images/logo.png` }],
    [{ object: "" }],
    [{ object: 5 }],
    [{ objects: [SEED_BLOB_OBJECTS.aliceLogo] }],
    [{}],
  ])("malformed %j is 400 INVALID_OBJECT", async (body) => {
    expectError(await env.blob("DELETE", "/v1/objects", { json: body }), 400, "INVALID_OBJECT");
  });

  test("another account's object cannot be deleted (400 INVALID_OBJECT) and stays", async () => {
    expectError(
      await env.blob("DELETE", "/v1/objects", { key: KEYS.bob, json: { object: SEED_BLOB_OBJECTS.aliceLogo } }),
      400,
      "INVALID_OBJECT",
    );
    expect(await listIds("?prefix=images")).toEqual([SEED_BLOB_OBJECTS.aliceLogo]);
  });
});

describe("GET /v1/account/stats", () => {
  test("usage, plan and billing numbers", async () => {
    const stats = expectSuccess(await env.blob("GET", "/v1/account/stats"));
    expect(stats).toEqual({
      usage: { objects: 3, storage: 350208 + 24576 + 4096 },
      plan: { included: expect.any(Number) },
      billing: {
        extraStorage: 0,
        storagePrice: 0,
        objectsPrice: expect.any(Number),
        totalEstimate: expect.any(Number),
      },
    });
    expect(stats.billing.totalEstimate).toBeCloseTo(stats.billing.storagePrice + stats.billing.objectsPrice);
  });

  test("refreshed once a minute", async () => {
    const before = expectSuccess(await env.blob("GET", "/v1/account/stats"));
    expectSuccess(await upload("?name=counted"));
    expect(expectSuccess(await env.blob("GET", "/v1/account/stats"))).toEqual(before);
    await env.emu.admin.advanceClock(60_000);
    expect(expectSuccess(await env.blob("GET", "/v1/account/stats")).usage.objects).toBe(before.usage.objects + 1);
  });
});

describe("the local CDN (GET <blob URL>/public/<id>)", () => {
  function formOf(data: Buffer, type: string): FormData {
    const form = new FormData();
    form.append("file", new Blob([data], { type }));
    return form;
  }

  test("serves the exact bytes with the MIME type, to anyone, at the URL the upload answered", async () => {
    const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const object = expectSuccess(await upload("?name=served&prefix=cdn", formOf(data, "image/png")));
    const response = await fetch(object.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(data)).toBe(true);
    const log = await env.emu.admin.requests();
    expect(log.at(-1)).toMatchObject({ route: "GET /public/*", path: `/public/${object.id}`, status: 200 });
  });

  test("auto_download makes it an attachment", async () => {
    const object = expectSuccess(await upload("?name=download&auto_download=true", fileForm(1024, "text/csv")));
    const response = await fetch(object.url);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${object.id.split("/").pop()}"`);
  });

  test("deleted and expired objects are gone from the CDN; seeded objects have no bytes", async () => {
    const deleted = expectSuccess(await upload("?name=deleted", fileForm(1024, "text/plain")));
    expectSuccess(await env.blob("DELETE", "/v1/objects", { json: { object: deleted.id } }));
    expect((await fetch(deleted.url)).status).toBe(404);

    const expiring = expectSuccess(await upload("?name=expiring&expire=1", fileForm(1024, "text/plain")));
    expect((await fetch(expiring.url)).status).toBe(200);
    await env.emu.admin.advanceClock(DAY);
    const expired = await fetch(expiring.url);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toMatchObject({ code: "OBJECT_NOT_FOUND" });

    const seeded = await fetch(`${env.emu.blobUrl}/public/${SEED_BLOB_OBJECTS.aliceLogo}`);
    expect(seeded.status).toBe(404);
    expect(await seeded.json()).toMatchObject({ code: "CONTENT_NOT_KEPT" });
  });

  test("only GET and HEAD", async () => {
    const object = expectSuccess(await upload("?name=headonly", fileForm(1500, "text/plain")));
    const head = await fetch(object.url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("1500");
    expect((await fetch(object.url, { method: "POST" })).status).toBe(405);
  });

  test("API answers carry the emulator clock as their Date header", async () => {
    const now = await env.emu.admin.advanceClock(3 * DAY);
    const response = await env.blob("GET", "/v1/objects");
    const date = Date.parse(response.headers.get("date") ?? "");
    expect(Math.abs(date - now)).toBeLessThan(5_000);
  });
});
