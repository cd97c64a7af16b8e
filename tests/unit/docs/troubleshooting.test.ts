import * as pulumi from "@pulumi/pulumi";
import { errorFromResponse, errorFromTransport, RequestContext } from "../../../provider/client/errors";
import { resolveConfig } from "../../../provider/config";
import { settingsFailures } from "../../../provider/lifecycle/settings-check";
import { configure } from "../../../provider/runtime";
import { readDoc } from "../../doc-blocks";
import { closedPort } from "../helpers/stub-server";

// docs/troubleshooting.md quotes the messages users see; each one below is made by the code and
// must be quoted there as it is (a quote may leave parts out with "…").

const PAGE = readDoc("docs/troubleshooting.md");
const READ_ACCOUNT: RequestContext = { operation: "read account", method: "GET", path: "/v2/users/me" };
const NOT_TIMED_OUT = { timedOut: false, timeoutMs: 30_000 };
const MIN_QUOTE = 20;

/** The code spans of the first column of the page's table. */
function quotedMessages(): string[] {
  return PAGE.split("\n")
    .filter((line) => line.startsWith("| `") || line.startsWith("| ``"))
    .flatMap((line) => [...line.split(" | ")[0].matchAll(/`+ ?(.+?) ?`+/g)].map((match) => match[1]));
}

function isQuoted(message: string): boolean {
  return quotedMessages().some((quote) => {
    const parts = quote.split("…").map((part) => part.trim()).filter((part) => part !== "");
    // Short spans are names or punctuation around a quote, not quotes.
    return parts.join("").length >= MIN_QUOTE && parts.every((part) => message.includes(part));
  });
}

describe("docs/troubleshooting.md quotes the settings messages as the code makes them", () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  test("a refused key, naming where it came from", () => {
    const origin = { baseUrl: "https://api.squarecloud.app", keySource: "squarecloud:apiKey", secrets: [] };
    const refused = errorFromResponse(READ_ACCOUNT, { status: 401, code: "ACCESS_DENIED", message: "The API key is missing or invalid." }, origin);
    expect(isQuoted(refused.message)).toBe(true);
  });

  test("the settings check at preview, against a local address nobody listens at", async () => {
    const stopped = `http://127.0.0.1:${await closedPort()}`;
    process.env.SQUARECLOUD_API_KEY = "1-readme";
    const config = new Map([["squarecloud:platformUrl", stopped]]);
    await configure({ config: { get: (key: string) => config.get(key) } as unknown as pulumi.Config });
    const [failure] = await settingsFailures(["platform"]);
    // The page shows the emulator's own port.
    expect(isQuoted(failure.reason.replace(stopped, "http://127.0.0.1:4580"))).toBe(true);
  });

  test("a host that does not resolve", () => {
    const origin = { baseUrl: "https://api.squarecloud.app", urlSource: "the default of squarecloud:platformUrl", secrets: [] };
    const unresolved = Object.assign(new Error("getaddrinfo ENOTFOUND api.squarecloud.app"), { code: "ENOTFOUND" });
    expect(isQuoted(errorFromTransport(READ_ACCOUNT, unresolved, NOT_TIMED_OUT, origin).message)).toBe(true);
  });

  test("a key that is not set", () => {
    delete process.env.SQUARECLOUD_API_KEY;
    expect(isQuoted(configFailure({}))).toBe(true);
  });

  test("a key with whitespace", () => {
    expect(isQuoted(configFailure({ "squarecloud:apiKey": "1-pasted key" }))).toBe(true);
  });

  test("a URL that is not http or https", () => {
    expect(isQuoted(configFailure({ "squarecloud:apiKey": "k", "squarecloud:platformUrl": "ftp://files.example" }))).toBe(true);
  });

  test("a skip switch that is neither true nor false", () => {
    expect(isQuoted(configFailure({ "squarecloud:apiKey": "k", "squarecloud:skipCredentialsCheck": "yes" }))).toBe(true);
  });

  test("a message the code does not make is not taken for a quote", () => {
    expect(isQuoted("read account failed: CONNECTION_REFUSED (ECONNREFUSED, GET /v2/users/me): something else")).toBe(false);
  });
});

/** The message resolveConfig refuses this stack config with. */
function configFailure(config: Record<string, string>): string {
  try {
    resolveConfig(config);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`resolveConfig accepted ${JSON.stringify(config)}`);
}
