import {
  ApiError,
  certainlyNotSent,
  errorFromResponse,
  errorFromTransport,
  invalidResponse,
  isNotFound,
  refusedLocally,
  type Origin,
  type RequestContext,
} from "../../../provider/client/errors";
import { redact, REDACTED } from "../../../provider/client/redact";

const createDatabase: RequestContext = {
  operation: "create database",
  resource: "cache",
  method: "POST",
  path: "/v2/databases",
};
const getDatabase: RequestContext = {
  operation: "get database",
  resource: "db1",
  method: "GET",
  path: "/v2/databases/{databaseId}",
};

const secrets = {
  apiKey: "3155597145698959364-9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  password: "s3cr3t-Pa55word",
  inviteCode: "0123456789abcdef0123456789abcdef",
  connectionUrl: "mongodb://default:s3cr3t-Pa55word@square-cloud-db-abc.squareweb.app:7000/db",
  presignedKey: "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20250101&X-Amz-Signature=abcdef123456",
  certificate: `LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJrVENCK3dJSkFNSEh${"A".repeat(60)}`,
  pem: "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
};

/** A client of the live platform API whose settings came from the stack config. */
function origin(...secrets: string[]): Origin {
  return {
    baseUrl: "https://api.squarecloud.app",
    urlSource: "squarecloud:platformUrl",
    keySource: "squarecloud:apiKey",
    secrets,
  };
}

/** Everything an error exposes: its message and its serialized properties. */
function exposed(error: ApiError): string {
  return `${error.message}\n${error.stack}\n${JSON.stringify(error)}`;
}

describe("errorFromResponse", () => {
  it("reads like a sentence naming operation, resource, code, status and endpoint", () => {
    const error = errorFromResponse(
      createDatabase,
      { status: 400, code: "INSUFFICIENT_MEMORY", message: "Not enough RAM" },
      origin(),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      'create database "cache" failed: INSUFFICIENT_MEMORY (HTTP 400, POST /v2/databases): Not enough RAM',
    );
    expect(error).toMatchObject({
      code: "INSUFFICIENT_MEMORY",
      status: 400,
      method: "POST",
      path: "/v2/databases",
      operation: "create database",
      resource: "cache",
      mayHaveCommitted: false,
    });
  });

  it("falls back to HTTP_<status> without a code", () => {
    const error = errorFromResponse(getDatabase, { status: 502 }, origin());
    expect(error.code).toBe("HTTP_502");
    expect(error.message).toBe('get database "db1" failed: HTTP_502 (HTTP 502, GET /v2/databases/{databaseId})');
  });

  it("flags a 5xx on a non-idempotent request as possibly committed, and only that", () => {
    expect(errorFromResponse(createDatabase, { status: 503 }, origin()).mayHaveCommitted).toBe(true);
    expect(errorFromResponse(createDatabase, { status: 503 }, origin()).message).toMatch(/may have taken effect/);
    expect(errorFromResponse(createDatabase, { status: 429 }, origin()).mayHaveCommitted).toBe(false);
    expect(errorFromResponse(createDatabase, { status: 400 }, origin()).mayHaveCommitted).toBe(false);
    expect(errorFromResponse(getDatabase, { status: 503 }, origin()).mayHaveCommitted).toBe(false);
  });

  it("never exposes secrets a server message carries", () => {
    const message =
      `bad key ${secrets.apiKey}; password: ${secrets.password}; url ${secrets.connectionUrl}; ` +
      `code ${secrets.inviteCode}; https://cdn.example/snap.zip?${secrets.presignedKey} ${secrets.certificate} ${secrets.pem}`;
    const error = errorFromResponse(
      createDatabase,
      { status: 400, code: "INVALID_CODE", message },
      origin(secrets.apiKey),
    );
    const text = exposed(error);
    for (const [name, secret] of Object.entries(secrets)) {
      expect({ name, leaked: text.includes(secret) }).toEqual({ name, leaked: false });
    }
    expect(text).not.toContain("s3cr3t");
    expect(text).not.toContain("X-Amz-Signature");
    expect(error.message).toContain("https://cdn.example/snap.zip?[REDACTED]");
  });

  it("scrubs a known secret even in a shape no pattern recognizes", () => {
    const error = errorFromResponse(
      getDatabase,
      { status: 401, code: "ACCESS_DENIED", message: "key xyz is invalid" },
      origin("xyz"),
    );
    expect(error.message).toContain(`key ${REDACTED} is invalid`);
  });
});

describe("error codes under their old names", () => {
  // Pairs from @squarecloud/api-types 3's APIErrorCode, whose deprecated keys resolve to the new names.
  const renamed: [old: string, current: string][] = [
    ["UNKNOWN_WORKSPACE", "WORKSPACE_NOT_FOUND"],
    ["UNKNOWN_MEMBER", "MEMBER_NOT_FOUND"],
    ["CODE_INVALID", "INVALID_CODE"],
    ["NAME_INVALID", "INVALID_NAME"],
    ["MEMORY_INVALID", "INVALID_MEMORY"],
    ["FEW_MEMORY", "INSUFFICIENT_MEMORY"],
    ["FAILED_DATABASE_CREATION", "DATABASE_CREATION_FAILED"],
    ["DELETE_ERROR", "DELETE_FAILED"],
    ["MAX_MEMBERS_REACHED", "MEMBERS_LIMIT_REACHED"],
    ["INTERNAL_ERROR", "INTERNAL_SERVER_ERROR"],
  ];

  it.each(renamed)("reads %s as %s and says in the message which name the server sent", (old, current) => {
    const error = errorFromResponse(getDatabase, { status: 400, code: old, message: "refused" }, origin());
    expect(error.code).toBe(current);
    expect(error.message).toBe(
      `get database "db1" failed: ${current} (HTTP 400, sent as ${old}, GET /v2/databases/{databaseId}): refused`,
    );
  });

  it("makes an object gone under the old name of its not-found code as under the new one", () => {
    for (const code of ["UNKNOWN_WORKSPACE", "WORKSPACE_NOT_FOUND"]) {
      expect(isNotFound(errorFromResponse(getDatabase, { status: 404, code }, origin()), "WORKSPACE_NOT_FOUND")).toBe(
        true,
      );
    }
  });

  it("leaves current names and unknown codes as sent", () => {
    for (const code of ["WORKSPACE_NOT_FOUND", "RATE_LIMITED", "SOMETHING_NEW"]) {
      const error = errorFromResponse(getDatabase, { status: 400, code }, origin());
      expect(error.code).toBe(code);
      expect(error.message).not.toContain("sent as");
    }
  });
});

describe("errorFromTransport", () => {
  const notTimedOut = { timedOut: false, timeoutMs: 2000 };

  it("maps a refused connection to CONNECTION_REFUSED, never committed, naming the URL and its setting", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const wrapped = new Error("fetch failed", { cause: refused });
    const error = errorFromTransport(createDatabase, wrapped, notTimedOut, origin());
    expect(error.code).toBe("CONNECTION_REFUSED");
    expect(error.status).toBeUndefined();
    expect(error.mayHaveCommitted).toBe(false);
    expect(error.message).toBe(
      'create database "cache" failed: CONNECTION_REFUSED (ECONNREFUSED, POST /v2/databases): nothing accepted the connection at ' +
        "https://api.squarecloud.app (from squarecloud:platformUrl). pulumi refresh and pulumi destroy on their own use the URLs " +
        "recorded by the last run of the program: after changing one, run them with --run-program",
    );
    expect(certainlyNotSent(error)).toBe(true);
  });

  it("asks for the emulator only for a local address", () => {
    const unresolved = Object.assign(new Error("getaddrinfo ENOTFOUND localhost"), { code: "ENOTFOUND" });
    for (const baseUrl of ["http://localhost:5000", "http://127.0.0.1:1", "http://[::1]:9"]) {
      const error = errorFromTransport(getDatabase, unresolved, notTimedOut, { ...origin(), baseUrl });
      expect(error.message).toContain(
        `CONNECTION_FAILED (ENOTFOUND, GET /v2/databases/{databaseId}): could not connect to ${baseUrl} (from squarecloud:platformUrl). For the local emulator, start it first: npx squarecloud-emulator`,
      );
    }
    expect(errorFromTransport(getDatabase, unresolved, notTimedOut, origin()).message).not.toContain("emulator");
  });

  it("maps a request dispatched on a closed pool to CLIENT_CLOSED: never sent, even for a POST", () => {
    const closed = Object.assign(new Error("The client is closed"), { code: "UND_ERR_CLOSED" });
    const error = errorFromTransport(createDatabase, closed, notTimedOut, origin());
    expect(error).toMatchObject({ code: "CLIENT_CLOSED", mayHaveCommitted: false });
    expect(error.message).toBe('create database "cache" failed: CLIENT_CLOSED (UND_ERR_CLOSED, POST /v2/databases)');
    expect(certainlyNotSent(error)).toBe(true);
  });

  it("maps a reset after sending to CONNECTION_RESET, committed only for non-idempotent requests", () => {
    const reset = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    expect(errorFromTransport(createDatabase, reset, notTimedOut, origin())).toMatchObject({
      code: "CONNECTION_RESET",
      mayHaveCommitted: true,
    });
    expect(errorFromTransport(getDatabase, reset, notTimedOut, origin())).toMatchObject({
      code: "CONNECTION_RESET",
      mayHaveCommitted: false,
    });
    // An idempotent request is not "committed", yet it may have reached the server.
    expect(certainlyNotSent(errorFromTransport(getDatabase, reset, notTimedOut, origin()))).toBe(false);
  });

  it("reports our own timeout whatever undici threw for the abort", () => {
    const error = errorFromTransport(
      createDatabase,
      new Error("This operation was aborted"),
      { timedOut: true, timeoutMs: 200 },
      origin(),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error.mayHaveCommitted).toBe(true);
    expect(error.message).toMatch(
      /^create database "cache" failed: TIMEOUT \(no response within 200 ms, POST \/v2\/databases\)/,
    );
  });

  it("keeps an unknown failure readable but scrubbed", () => {
    const odd = new Error(`weird failure for ${secrets.apiKey}`);
    const error = errorFromTransport(getDatabase, odd, notTimedOut, origin(secrets.apiKey));
    expect(error.code).toBe("REQUEST_FAILED");
    expect(exposed(error)).not.toContain(secrets.apiKey);
    expect(error.message).toContain(
      "(Error, GET /v2/databases/{databaseId}): request to https://api.squarecloud.app (from squarecloud:platformUrl) failed: weird failure for [REDACTED]",
    );
  });
});

describe("invalidResponse and refusedLocally", () => {
  it("names the endpoint of an unreadable response and flags a non-idempotent one", () => {
    const error = invalidResponse(createDatabase, 200, "response.id: expected string");
    expect(error.code).toBe("INVALID_RESPONSE");
    expect(error.mayHaveCommitted).toBe(true);
    expect(error.message).toContain("unexpected response from POST /v2/databases: response.id: expected string");
  });

  it("says a refused request was not sent", () => {
    const error = refusedLocally(getDatabase, "NO_UPDATE_DATA", "nothing to change");
    expect(error.message).toBe(
      'get database "db1" failed: NO_UPDATE_DATA (not sent, GET /v2/databases/{databaseId}): nothing to change',
    );
    expect(error.mayHaveCommitted).toBe(false);
  });
});

describe("isNotFound", () => {
  it("recognizes the named code only, never a bare 404 (a wrong base URL answers 404 everywhere)", () => {
    expect(
      isNotFound(
        errorFromResponse(getDatabase, { status: 404, code: "DATABASE_NOT_FOUND" }, origin()),
        "DATABASE_NOT_FOUND",
      ),
    ).toBe(true);
    expect(
      isNotFound(
        errorFromResponse(getDatabase, { status: 400, code: "WORKSPACE_NOT_FOUND" }, origin()),
        "WORKSPACE_NOT_FOUND",
      ),
    ).toBe(true);
    expect(
      isNotFound(
        errorFromResponse(getDatabase, { status: 404, code: "WORKSPACE_NOT_FOUND" }, origin()),
        "DATABASE_NOT_FOUND",
      ),
    ).toBe(false);
    expect(isNotFound(errorFromResponse(getDatabase, { status: 404 }, origin()), "DATABASE_NOT_FOUND")).toBe(false);
    expect(isNotFound(new Error("DATABASE_NOT_FOUND"), "DATABASE_NOT_FOUND")).toBe(false);
  });
});

describe("redact", () => {
  it("keeps harmless text and the readable part of URLs", () => {
    expect(redact("Database not found")).toBe("Database not found");
    expect(redact("see https://docs.squarecloud.app/api?x=1&y=2 for more")).toBe(
      "see https://docs.squarecloud.app/api?[REDACTED] for more",
    );
  });

  it("drops whole URLs that carry credentials", () => {
    expect(redact(`connect to ${secrets.connectionUrl} now`)).toBe(`connect to ${REDACTED} now`);
  });

  it("cuts long messages", () => {
    expect(redact("word ".repeat(200)).length).toBeLessThanOrEqual(303);
  });
});

test("a refused key says how to make a rotated key reach refresh and destroy", () => {
  const error = errorFromResponse(
    getDatabase,
    { status: 401, code: "ACCESS_DENIED", message: "The API key is missing or invalid." },
    origin(secrets.apiKey),
  );
  expect(error.message).toMatch(
    /ACCESS_DENIED \(HTTP 401, GET .*The API key was refused; it came from squarecloud:apiKey\. If it was replaced, .*pulumi refresh --run-program/,
  );
  // The server's sentence keeps its one full stop before the steps.
  expect(error.message).toContain("missing or invalid. The API key was refused");
  expect(errorFromResponse(getDatabase, { status: 404, code: "DATABASE_NOT_FOUND" }, origin()).message).not.toMatch(
    /API key was refused/,
  );
});
