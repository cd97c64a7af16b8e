import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { SEED_ACCOUNTS, SEED_APPS, SEED_DATABASES, SEED_DATABASE_SNAPSHOT_VERSIONS } from "../../emulator";
import { zipEntry } from "../../scripts/release/zip";
import { KEYS, expectError, expectSuccess, useEmulator } from "./helpers";

/**
 * The emulator as the official clients meet it: what they send beyond the reference's letter (a JSON
 * body without its Content-Type, a body still being written when the request is refused), the
 * live routes the reference lacks, the fields the official types give deployment events, and the
 * snapshot download a creation's URL names.
 */

const env = useEmulator();

/** One HTTP/1.1 response read off a raw socket: status line, headers (lower-cased) and JSON body. */
interface SocketResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * A raw connection that reads responses one after another, so a test can tell whether the server
 * kept the connection for a second request after refusing the first.
 */
class RawConnection {
  private buffered = Buffer.alloc(0);
  private waiting?: () => void;
  readonly errors: Error[] = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
    socket.on("error", (error) => this.errors.push(error));
    socket.on("close", () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static async open(baseUrl: string): Promise<RawConnection> {
    const url = new URL(baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, "connect");
    return new RawConnection(socket);
  }

  /** Bytes received so far: a refusal answered before the body was in shows up here early. */
  get receivedBytes(): number {
    return this.buffered.length;
  }

  async write(data: string | Buffer): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.socket.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  async response(): Promise<SocketResponse> {
    for (;;) {
      const parsed = this.takeResponse();
      if (parsed) return parsed;
      if (this.closed) throw new Error(`connection closed before a whole response (${this.errors.join("; ")})`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private takeResponse(): SocketResponse | undefined {
    const headerEnd = this.buffered.indexOf("\r\n\r\n");
    if (headerEnd < 0) return undefined;
    const [statusLine, ...lines] = this.buffered.subarray(0, headerEnd).toString("latin1").split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"]);
    if (this.buffered.length < headerEnd + 4 + length) return undefined;
    const body = this.buffered.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
    this.buffered = this.buffered.subarray(headerEnd + 4 + length);
    return { status: Number(statusLine!.split(" ")[1]), headers, body: JSON.parse(body) };
  }
}

function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ Host: "emulator", ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`;
}

describe("a request refused before its body is read: the body is drained, the answer is JSON, the connection lives on", () => {
  /**
   * The body goes out in 1 KB writes, each awaited: were the refusal sent (and the connection
   * closed) on the headers, the response bytes would arrive while the client is still writing, and
   * the second request on the connection would find it closed.
   */
  async function refusedWhileWriting(
    baseUrl: string,
    head: string,
    body: Buffer,
  ): Promise<{ refusal: SocketResponse; receivedBeforeBodyEnd: number; next: SocketResponse; errors: Error[] }> {
    const connection = await RawConnection.open(baseUrl);
    try {
      await connection.write(head);
      const lastChunk = body.length - 1024;
      for (let offset = 0; offset < lastChunk; offset += 1024) {
        await connection.write(body.subarray(offset, Math.min(offset + 1024, lastChunk)));
      }
      const receivedBeforeBodyEnd = connection.receivedBytes;
      await connection.write(body.subarray(lastChunk));
      const refusal = await connection.response();
      await connection.write(requestHead("GET", "/v1/account/stats", { Authorization: KEYS.alice }));
      return { refusal, receivedBeforeBodyEnd, next: await connection.response(), errors: connection.errors };
    } finally {
      connection.socket.destroy();
    }
  }

  function multipartUpload(size: number): { contentType: string; body: Buffer } {
    const boundary = "----emulator-test-boundary";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.alloc(size, 7),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { contentType: `multipart/form-data; boundary=${boundary}`, body };
  }

  test("an upload of 20 KB with a bad key gets 401 ACCESS_DENIED as JSON, after its whole body", async () => {
    const { contentType, body } = multipartUpload(20 * 1024);
    const head = requestHead("POST", "/v1/objects?name=refused", {
      Authorization: "1-not-a-key",
      "Content-Type": contentType,
      "Content-Length": body.length,
    });
    const { refusal, receivedBeforeBodyEnd, next, errors } = await refusedWhileWriting(env.emu.blobUrl, head, body);
    expect(receivedBeforeBodyEnd).toBe(0);
    expect(refusal).toMatchObject({ status: 401, body: { status: "error", code: "ACCESS_DENIED" } });
    expect(refusal.headers.connection).not.toBe("close");
    expect(next).toMatchObject({ status: 200, body: { status: "success" } });
    expect(errors).toEqual([]);
  });

  test("a 20 KB JSON body to an unknown route gets 404 ROUTE_NOT_FOUND the same way", async () => {
    const body = Buffer.from(JSON.stringify({ padding: "x".repeat(20 * 1024) }));
    const head = requestHead("POST", "/v1/nowhere", {
      Authorization: KEYS.alice,
      "Content-Type": "application/json",
      "Content-Length": body.length,
    });
    const { refusal, receivedBeforeBodyEnd, next, errors } = await refusedWhileWriting(env.emu.blobUrl, head, body);
    expect(receivedBeforeBodyEnd).toBe(0);
    expect(refusal).toMatchObject({ status: 404, body: { status: "error", code: "ROUTE_NOT_FOUND" } });
    expect(next).toMatchObject({ status: 200, body: { status: "success" } });
    expect(errors).toEqual([]);
  });

  test("a body over the route's limit is not drained: the answer closes the connection", async () => {
    const connection = await RawConnection.open(env.emu.platformUrl);
    try {
      await connection.write(
        requestHead("POST", "/v2/workspaces", {
          Authorization: KEYS.alice,
          "Content-Type": "application/json",
          "Content-Length": 2 * 1024 * 1024,
        }),
      );
      const refusal = await connection.response();
      expect(refusal).toMatchObject({ status: 413, body: { code: "PAYLOAD_TOO_LARGE" } });
      expect(refusal.headers.connection).toBe("close");
    } finally {
      connection.socket.destroy();
    }
  });
});

describe("a JSON body without its Content-Type", () => {
  const aliceLogo = `${SEED_ACCOUNTS.alice.accountId}/images/logo_lxch4k7y-07ee.png`;

  test.each([
    ["no Content-Type", {}],
    [
      "text/plain (what fetch sets for a string body, as the official blob clients send it)",
      { "Content-Type": "text/plain;charset=UTF-8" },
    ],
  ])("DELETE /v1/objects takes it with %s", async (_label, headers) => {
    const body = JSON.stringify({ object: aliceLogo });
    expectSuccess(await env.blob("DELETE", "/v1/objects", { body, headers }));
    // Deleted: the same request again finds nothing.
    expectError(await env.blob("DELETE", "/v1/objects", { body, headers }), 404, "OBJECT_NOT_FOUND");
  });

  test("DELETE /v1/objects still reads the body as JSON: anything else is 400 INVALID_JSON", async () => {
    expectError(
      await env.blob("DELETE", "/v1/objects", { body: "object=x", headers: { "Content-Type": "text/plain" } }),
      400,
      "INVALID_JSON",
    );
  });

  test("platform routes, which every official client sends as application/json, still answer 415", async () => {
    const response = await env.platform("POST", "/v2/workspaces", {
      body: JSON.stringify({ name: "team_x" }),
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
    });
    expectError(response, 415, "INVALID_CONTENT_TYPE");
  });
});

describe("routes of the live service outside the reference are unknown routes, not ids", () => {
  test.each(["/v2/apps/status", "/v2/databases/status", "/v2/apps/domains", "/v2/apps/load-balancers"])(
    "GET %s is 404 ROUTE_NOT_FOUND",
    async (path) => {
      expectError(await env.platform("GET", path), 404, "ROUTE_NOT_FOUND");
    },
  );

  test("GET /v2/workspaces/leave is 405 for the leave route, not a lookup of workspace 'leave'", async () => {
    const response = await env.platform("GET", "/v2/workspaces/leave");
    expectError(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("DELETE");
  });

  test("ids are still looked up: an unknown one is APP_NOT_FOUND", async () => {
    expectError(await env.platform("GET", "/v2/apps/ffffffffffffffffffffffffffffffff"), 404, "APP_NOT_FOUND");
    expect(expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}`)).id).toBe(SEED_APPS.aliceApi);
  });
});

describe("deployment events carry what the official types give them", () => {
  test("ids are 40-hex commit ids; clone events name their branch, other states carry no branch", async () => {
    const deployments = expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}/deployments`));
    expect(deployments.length).toBeGreaterThan(0);
    for (const events of deployments as { id: string; state: string; branch?: string }[][]) {
      for (const event of events) {
        expect(event.id).toMatch(/^[0-9a-f]{40}$/);
        if (event.state === "clone") expect(event.branch).toBe("main");
        else expect(event).not.toHaveProperty("branch");
      }
      expect(events.map((e) => e.state)).toContain("clone");
    }
  });
});

async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe("a snapshot's URL is served by the emulator", () => {
  test("an application snapshot's URL points here and serves a ZIP of the app's files, the size its listing gives", async () => {
    const { url } = expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceBot}/snapshots`));
    expect(url.startsWith(`${env.emu.platformUrl}/snapshots/applications/${SEED_ACCOUNTS.alice.accountId}/`)).toBe(
      true,
    );
    const archive = await download(url);
    expect({ status: archive.status, type: archive.type }).toEqual({ status: 200, type: "application/zip" });
    for (const file of ["requirements.txt", "squarecloud.app", "main.py", "cogs/music.py"]) {
      expect(zipEntry(archive.bytes, file)?.toString()).toContain(`${file} of application ${SEED_APPS.aliceBot}`);
    }
    const [listed] = expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceBot}/snapshots`));
    expect(listed.size).toBe(archive.bytes.length);
  });

  test("a database snapshot's listing key downloads that version's archive", async () => {
    const owner = SEED_ACCOUNTS.alice.accountId;
    const entries = expectSuccess(await env.platform("GET", `/v2/databases/${SEED_DATABASES.aliceCache}/snapshots`));
    const oldest = entries[entries.length - 1];
    const archive = await download(
      `${env.emu.platformUrl}/snapshots/databases/${owner}/${SEED_DATABASES.aliceCache}.zip?${oldest.key}`,
    );
    expect(archive.status).toBe(200);
    expect(archive.bytes.length).toBe(oldest.size);
    const dump = zipEntry(archive.bytes, `${SEED_DATABASES.aliceCache}.dump`)?.toString();
    expect(dump).toContain(SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache[2]);
  });

  test("a link with a changed signature, for another archive, or expired is 403 SNAPSHOT_ACCESS_DENIED", async () => {
    const { url } = expectSuccess(await env.platform("POST", `/v2/apps/${SEED_APPS.aliceBot}/snapshots`));
    const forged = new URL(url);
    forged.searchParams.set("Signature", "AAAA");
    const other = url.replace(SEED_APPS.aliceBot, SEED_APPS.aliceWebsite);
    for (const link of [forged.toString(), other]) {
      const refused = await fetch(link);
      expect({ status: refused.status, body: await refused.json() }).toMatchObject({
        status: 403,
        body: { status: "error", code: "SNAPSHOT_ACCESS_DENIED" },
      });
    }
    await env.emu.admin.advanceClock(16 * 60_000);
    expect((await fetch(url)).status).toBe(403);
  });
});
