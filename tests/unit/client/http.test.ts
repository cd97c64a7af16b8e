import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "../../../provider/client/http";
import { ConcurrencyLimit, IntervalPacer } from "../../../provider/client/pacing";
import { apiErrorOf } from "../helpers/api-error";
import { FakeClock } from "../helpers/fake-clock";
import { closedPort, reply, type StubHandler, StubServer } from "../helpers/stub-server";

/** What HttpClient puts on the wire and how it reads each kind of answer. */

const API_KEY = "3155597145698959364-0123456789abcdef0123456789abcdef";
const Thing = z.object({ id: z.string(), size: z.number() });

let stub: StubServer;
let clock: FakeClock;
let client: HttpClient;

function options(baseUrl: string): HttpClientOptions {
  return {
    baseUrl,
    apiKey: API_KEY,
    userAgent: "pulumi-squarecloud/9.9.9",
    timeoutMs: 2_000,
    retry: {
      maxAttempts: 3,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      refusalMaxDelayMs: 500,
      deadlineMs: 60_000,
      refusedAttempts: 3,
    },
    clock,
    random: () => 0.5,
  };
}

beforeAll(async () => {
  stub = await StubServer.start();
});

afterAll(() => stub.close());

beforeEach(() => {
  stub.reset();
  clock = new FakeClock();
  client = new HttpClient(options(stub.url));
});

afterEach(() => client.close());

describe("HttpClient", () => {
  it("sends the raw key, its user agent and JSON, and returns the parsed response", async () => {
    stub.handler = reply(200, { status: "success", response: { id: "t1", size: 3, unknown: "dropped" } });
    const result = await client.request({
      operation: "create thing",
      method: "POST",
      path: "/v2/things/{id}",
      params: { id: "a b/c" },
      query: { scope: "databases", skip: undefined },
      json: { name: "x" },
      schema: Thing,
    });
    expect(result).toEqual({ id: "t1", size: 3 });
    expect(stub.seen).toHaveLength(1);
    const [sent] = stub.seen;
    expect(sent.url).toBe("/v2/things/a%20b%2Fc?scope=databases");
    expect(sent.headers.authorization).toBe(API_KEY);
    expect(sent.headers["user-agent"]).toBe("pulumi-squarecloud/9.9.9");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body.toString())).toEqual({ name: "x" });
  });

  it("keeps the connection after a DELETE that names its object in a JSON body", async () => {
    // undici closes it by default after a body sent with a method that expects none.
    const ports = new Set<number>();
    const answer = reply(200, { status: "success" });
    stub.handler = (req, res, body) => {
      ports.add(req.socket.remotePort!);
      answer(req, res, body);
    };
    const objects = ["a/1.txt", "a/2.txt", "a/3.txt", "a/4.txt", "a/5.txt"];
    for (const object of objects)
      await client.request({ operation: "delete object", method: "DELETE", path: "/v1/objects", json: { object } });
    expect(stub.seen.map((r) => JSON.parse(r.body.toString()).object)).toEqual(objects);
    // One connection per request without it; the pool may open a second while it frees the first.
    expect(ports.size).toBeLessThanOrEqual(2);
  });

  it("maps the error envelope to an ApiError and keeps the query out of it", async () => {
    stub.handler = reply(400, { status: "error", code: "INVALID_OBJECT_PREFIX", message: "bad prefix" });
    const error = await apiErrorOf(
      client.request({
        operation: "list objects",
        method: "GET",
        path: "/v1/objects",
        query: { prefix: "x!" },
        schema: Thing,
      }),
    );
    expect(error.message).toBe("list objects failed: INVALID_OBJECT_PREFIX (HTTP 400, GET /v1/objects): bad prefix");
    expect(error.path).toBe("/v1/objects");
    expect(stub.seen).toHaveLength(1);
  });

  it("retries a 503 with a non-JSON body and honours Retry-After on a 429", async () => {
    const answers: StubHandler[] = [
      (_req, res) => res.writeHead(503, { "content-type": "text/html" }).end("<html>busy</html>"),
      reply(429, { status: "error", code: "RATE_LIMIT" }, { "retry-after": "2" }),
      reply(200, { status: "success", response: { id: "t1", size: 1 } }),
    ];
    stub.handler = (req, res, body) => answers[stub.seen.length - 1](req, res, body);
    await client.request({ operation: "get thing", method: "GET", path: "/v2/things", schema: Thing });
    expect(stub.seen).toHaveLength(3);
    // The backoff, then Retry-After and a jitter of up to the base delay.
    expect(clock.sleeps).toEqual([50, 2_050]);
  });

  it("names the endpoint and the bad field of an unexpected shape without echoing values", async () => {
    stub.handler = reply(200, { status: "success", response: { id: 42, size: "secret-looking-value" } });
    const error = await apiErrorOf(
      client.request({
        operation: "get thing",
        method: "GET",
        path: "/v2/things/{id}",
        params: { id: "t1" },
        schema: Thing,
      }),
    );
    expect(error.code).toBe("INVALID_RESPONSE");
    expect(error.message).toContain("unexpected response from GET /v2/things/{id}: response.id:");
    expect(error.message).toContain("response.size:");
    expect(error.message).not.toContain("secret-looking-value");
  });

  it("reports a success status with a body that is not JSON as INVALID_RESPONSE", async () => {
    stub.handler = (_req, res) => res.writeHead(200).end("password=hunter2");
    const error = await apiErrorOf(
      client.request({ operation: "create thing", method: "POST", path: "/v2/things", schema: Thing }),
    );
    expect(error.code).toBe("INVALID_RESPONSE");
    expect(error.mayHaveCommitted).toBe(true);
    expect(error.message).not.toContain("hunter2");
  });

  it("accepts a status-only success without a schema", async () => {
    stub.handler = reply(200, { status: "success" });
    await expect(
      client.request({ operation: "delete thing", method: "DELETE", path: "/v2/things", json: { id: "t1" } }),
    ).resolves.toBeUndefined();
  });

  it("sends a file as the multipart part `file` with its MIME type", async () => {
    stub.handler = reply(200, { status: "success", response: { id: "t1", size: 4 } });
    await client.request({
      operation: "upload object",
      method: "POST",
      path: "/v1/objects",
      query: { name: "logo" },
      file: { content: Buffer.from("\x89PNG"), mimeType: "image/png", fileName: "logo" },
      schema: Thing,
    });
    const [sent] = stub.seen;
    expect(sent.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const body = sent.body.toString("latin1");
    expect(body).toContain('Content-Disposition: form-data; name="file"; filename="logo"');
    expect(body).toContain("Content-Type: image/png");
    expect(body).toContain("\x89PNG");
  });

  it("times out a slow answer and does not retry a POST that may have been applied", async () => {
    // The stub never answers: only the client's own timer can end the request.
    let hungUp!: Promise<void>;
    stub.handler = (_req, res) => (hungUp = new Promise((resolve) => res.on("close", resolve)));
    const error = await apiErrorOf(
      client.request({ operation: "create thing", method: "POST", path: "/v2/things", schema: Thing, timeoutMs: 100 }),
    );
    expect(error).toMatchObject({ code: "TIMEOUT", mayHaveCommitted: true });
    expect(error.message).toContain("no response within 100 ms");
    await hungUp; // the client closed the connection itself, without an answer
    expect(stub.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("fails a request made once closing has begun as not sent, lets the one in flight finish, and is not retried", async () => {
    let answer!: () => void;
    const received = new Promise<void>((resolve) => {
      stub.handler = (req, res, body) => {
        answer = () => reply(200, { status: "success", response: { id: "t1", size: 1 } })(req, res, body);
        resolve();
      };
    });
    const inFlight = client.request({ operation: "get thing", method: "GET", path: "/v2/things", schema: Thing });
    await received;
    const closed = client.close();
    const error = await apiErrorOf(
      client.request({ operation: "create thing", method: "POST", path: "/v2/things", schema: Thing }),
    );
    expect(error).toMatchObject({ code: "CLIENT_CLOSED", mayHaveCommitted: false });
    expect(error.message).toBe(
      "create thing failed: CLIENT_CLOSED (not sent, POST /v2/things): the client was already closed",
    );
    answer();
    await expect(inFlight).resolves.toEqual({ id: "t1", size: 1 });
    await closed;
    await expect(client.request({ operation: "get thing", method: "GET", path: "/v2/things" })).rejects.toMatchObject({
      code: "CLIENT_CLOSED",
    });
    expect(stub.seen.map((seen) => seen.method)).toEqual(["GET"]);
    expect(clock.sleeps).toEqual([]);
  });

  it("retries a POST whose connection was refused, since nothing was sent", async () => {
    const unreachable = new HttpClient(options(`http://127.0.0.1:${await closedPort()}`));
    try {
      const error = await apiErrorOf(
        unreachable.request({ operation: "create thing", method: "POST", path: "/v2/things", schema: Thing }),
      );
      expect(error.code).toBe("CONNECTION_REFUSED");
      expect(error.mayHaveCommitted).toBe(false);
      expect(clock.sleeps).toEqual([50, 100]);
    } finally {
      await unreachable.close();
    }
  });
});

describe("HttpClient connection errors", () => {
  it("name the base URL, the setting it came from and the path as sent; a local one asks for the emulator", async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v2`;
    const unreachable = new HttpClient({
      ...options(base),
      sources: { url: "SQUARECLOUD_PLATFORM_URL", key: "squarecloud:apiKey" },
    });
    try {
      const error = await apiErrorOf(
        unreachable.request({ operation: "read account", method: "GET", path: "/v2/users/me" }),
      );
      expect(error.message).toBe(
        `read account failed: CONNECTION_REFUSED (ECONNREFUSED, GET /v2/v2/users/me): nothing accepted the connection at ${base} ` +
          "(from SQUARECLOUD_PLATFORM_URL). For the local emulator, start it first: npx squarecloud-emulator in this project " +
          "(it comes with pulumi-squarecloud). pulumi refresh and " +
          "pulumi destroy on their own use the URLs recorded by the last run of the program: after changing one, run them with --run-program",
      );
      expect(error.message).not.toContain(API_KEY);
    } finally {
      await unreachable.close();
    }
  });
});

describe("HttpClient gates", () => {
  it("gives back the pacing slot of a refused connection, so its retries wait only their backoff", async () => {
    const gate = new IntervalPacer(clock).gate("things", 10_000);
    const unreachable = new HttpClient(options(`http://127.0.0.1:${await closedPort()}`));
    try {
      const error = await apiErrorOf(
        unreachable.request({ operation: "create thing", method: "POST", path: "/v2/things", gate }),
      );
      expect(error.code).toBe("CONNECTION_REFUSED");
    } finally {
      await unreachable.close();
    }
    expect(clock.sleeps).toEqual([50, 100]);
    // A request that reached the server keeps its slot: the next one waits the whole interval.
    stub.handler = reply(200, { status: "success" });
    await client.request({ operation: "get thing", method: "GET", path: "/v2/things", gate });
    await client.request({ operation: "get thing", method: "GET", path: "/v2/things", gate });
    expect(clock.sleeps).toEqual([50, 100, 10_000]);
  });

  it("fails with DEADLINE_EXCEEDED, sending nothing, when the pacing would start it after the deadline", async () => {
    stub.handler = reply(200, { status: "success" });
    const gate = new IntervalPacer(clock).gate("things", 60_001); // the call's deadline is 60 s
    await client.request({ operation: "get thing", method: "GET", path: "/v2/things", gate });
    const error = await apiErrorOf(
      client.request({ operation: "get thing", resource: "t1", method: "GET", path: "/v2/things", gate }),
    );
    expect(error).toMatchObject({ code: "DEADLINE_EXCEEDED", mayHaveCommitted: false });
    expect(error.message).toBe(
      'get thing "t1" failed: DEADLINE_EXCEEDED (not sent, GET /v2/things): ' +
        "the pacing of one request per 60001 ms allows the next one in 60001 ms, past the call's deadline",
    );
    expect(stub.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("stops waiting for a concurrency slot at the call's deadline", async () => {
    const limit = new ConcurrencyLimit(1, clock);
    const holder = await limit.gate(clock.now());
    const pending = apiErrorOf(
      client.request({ operation: "upload object", method: "POST", path: "/v1/objects", gate: limit.gate }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(59_999);
    clock.advance(1);
    const error = await pending;
    expect(error).toMatchObject({ code: "DEADLINE_EXCEEDED", mayHaveCommitted: false });
    expect(error.message).toBe(
      "upload object failed: DEADLINE_EXCEEDED (not sent, POST /v1/objects): all 1 slots stayed taken until the call's deadline",
    );
    expect(stub.seen).toHaveLength(0);
    holder(true);
  });
});
