import { connect } from "node:net";
import { SEED_APPS, SEED_DATABASES } from "../../emulator";
import { KEYS, expectError, expectSuccess, rawRequest, sendAndForget, useEmulator } from "./helpers";

const env = useEmulator();
const auth = { Authorization: KEYS.alice };

/** A snapshot of everything alice can see, to prove rejected requests changed nothing. */
async function aliceState(): Promise<string> {
  const parts = await Promise.all([
    env.platform("GET", "/v2/users/me"),
    env.platform("GET", "/v2/workspaces"),
    env.blob("GET", "/v1/objects"),
  ]);
  return JSON.stringify(parts.map((p) => p.body));
}

function sendRaw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

describe("bad bodies", () => {
  test("malformed JSON is 400 INVALID_JSON", async () => {
    const response = await env.platform("POST", "/v2/databases", {
      body: "{name: oops",
      headers: { "Content-Type": "application/json" },
    });
    expectError(response, 400, "INVALID_JSON");
  });

  test("a JSON body that is not an object is 400 INVALID_BODY", async () => {
    for (const json of [[1, 2], "text", 42, null]) {
      expectError(await env.platform("POST", "/v2/workspaces", { json }), 400, "INVALID_BODY");
    }
  });

  test("a non-JSON content type is 415 INVALID_CONTENT_TYPE", async () => {
    const response = await env.platform("POST", "/v2/workspaces", {
      body: "name=team_x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectError(response, 415, "INVALID_CONTENT_TYPE");
    // DELETE /v1/objects reads its body as JSON whatever the type (client-facing.test.ts).
  });

  test("JSON bodies over 1 MiB are 413 PAYLOAD_TOO_LARGE", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    expectError(
      await env.platform("POST", "/v2/workspaces", { body: big, headers: { "Content-Type": "application/json" } }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  test("a chunked JSON body growing past the limit is refused too", async () => {
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(128 * 1024).fill(0x20));
        controller.close();
      },
    });
    const response = await fetch(`${env.emu.platformUrl}/v2/workspaces`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: "error", code: "PAYLOAD_TOO_LARGE" });
  });
});

describe("bad routes and paths", () => {
  test("unknown routes are 404 ROUTE_NOT_FOUND on both servers", async () => {
    expectError(await env.platform("GET", "/v2/nothing/here"), 404, "ROUTE_NOT_FOUND");
    expectError(await env.platform("GET", "/"), 404, "ROUTE_NOT_FOUND");
    expectError(await env.platform("GET", "/v1/objects"), 404, "ROUTE_NOT_FOUND");
    expectError(await env.blob("GET", "/v2/users/me"), 404, "ROUTE_NOT_FOUND");
  });

  test("a known path with the wrong method is 405 METHOD_NOT_ALLOWED with Allow", async () => {
    const response = await env.platform("PUT", "/v2/databases");
    expectError(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("POST");
    const blob = await env.blob("PATCH", "/v1/objects");
    expectError(blob, 405, "METHOD_NOT_ALLOWED");
    expect(blob.headers.get("allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "POST"]);
  });

  test("traversal and odd characters never reach a resource", async () => {
    const base = env.emu.platformUrl;
    expect((await rawRequest(base, "GET", "/v2/databases/../users/me", { headers: auth })).body.code).toBe(
      "ROUTE_NOT_FOUND",
    );
    for (const path of [
      "/v2/databases/%2e%2e",
      "/v2/databases/..%2F..%2Fetc%2Fpasswd",
      "/v2/apps/%00",
      "/v2/apps/a%20b",
      "/v2/apps/%E0%A4%A",
      `/v2/apps/${"a".repeat(65)}`,
      "/v2/workspaces/%3Cscript%3E",
    ]) {
      const response = await rawRequest(base, "GET", path, { headers: auth });
      expect({ path, status: response.status, code: response.body.code }).toEqual({
        path,
        status: 400,
        code: "INVALID_ID",
      });
    }
    expect((await rawRequest(base, "GET", "//v2/users/me", { headers: auth })).status).toBe(404);
  });

  test("a trailing slash is tolerated", async () => {
    expectSuccess(await env.platform("GET", "/v2/users/me/"));
  });

  test("unparseable HTTP gets a 400 envelope and the server keeps serving", async () => {
    const answer = await sendRaw(env.emu.platformUrl, "THIS IS NOT HTTP\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('"status":"error"');
    expectSuccess(await env.platform("GET", "/v2/users/me"));
  });
});

describe("rejected requests change nothing", () => {
  test("a barrage of bad requests leaves alice's state identical", async () => {
    const before = await aliceState();
    const json = { "Content-Type": "application/json" };
    await Promise.all([
      env.platform("POST", "/v2/databases", { body: "{", headers: json }),
      env.platform("POST", "/v2/databases", { json: { name: "ok", memory: 100, type: "redis", version: "7.0" } }),
      env.platform("PATCH", `/v2/databases/${SEED_DATABASES.aliceCache}`, { json: { ram: 128 } }),
      env.platform("DELETE", `/v2/databases/${SEED_DATABASES.bobLegacy}`),
      env.platform("POST", "/v2/workspaces", { json: { name: "x" } }),
      env.platform("PATCH", `/v2/apps/${SEED_APPS.aliceWebsite}/files`, { json: { path: "../../x", to: "y" } }),
      env.platform("DELETE", "/v2/workspaces", { json: { workspaceId: "nope" } }),
      env.blob("DELETE", "/v1/objects", { json: { object: "../../../etc" } }),
      env.blob("POST", "/v1/objects?name=bad-name", {
        body: "garbage",
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
      }),
      env.blob("POST", "/v1/objects?name=okname", {
        body: "garbage",
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
      }),
      env.platform("GET", "/v2/users/me", { key: "wrong" }),
    ]);
    expect(await aliceState()).toBe(before);
  });
});

describe("clients that leave", () => {
  test("a JSON POST abandoned during a latency fault is logged 499 and the server keeps serving", async () => {
    await env.emu.admin.injectFault({
      match: { method: "POST", path: "/v2/workspaces" },
      kind: "latency",
      latencyMs: 300,
      count: 1,
    });
    const body = JSON.stringify({ name: "left_team" });
    const req = sendAndForget(env.emu.platformUrl, "POST", "/v2/workspaces", {
      headers: { ...auth, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
      body,
    });
    // The fault is used up once the server has taken the request: leave in the middle of the wait.
    await env.emu.admin.waitForFaultsUsedUp();
    req.destroy();
    const [logged] = await env.emu.admin.waitForRequests("POST /v2/workspaces");
    expect(logged).toEqual({
      method: "POST",
      route: "POST /v2/workspaces",
      path: "/v2/workspaces",
      status: 499,
      at: expect.any(String),
      fault: "latency",
    });
    expect(await env.emu.admin.counters()).toMatchObject({ "POST /v2/workspaces": 1 });
    // The whole request had arrived, so the work was done: only the answer was lost.
    const names = expectSuccess(await env.platform("GET", "/v2/workspaces")).map((w: { name: string }) => w.name);
    expect(names).toContain("left_team");
    expectSuccess(await env.platform("POST", "/v2/workspaces", { json: { name: "next_team" } }));
  });
});
