import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { errorFromResponse, errorFromTransport, RequestContext } from "../../provider/client/errors";
import { resolveConfig } from "../../provider/config";
import { settingsFailures } from "../../provider/lifecycle/settings-check";
import { configure } from "../../provider/runtime";
import { closedPort } from "./helpers/stub-server";

// README's Troubleshooting quotes the messages users see; each one below is made by the code and
// must be quoted there as it is (a quote may leave parts out with "…").

const README = readFileSync(path.join(__dirname, "..", "..", "..", "README.md"), "utf8");
const READ_ACCOUNT: RequestContext = { operation: "read account", method: "GET", path: "/v2/users/me" };
const NOT_TIMED_OUT = { timedOut: false, timeoutMs: 30_000 };
const MIN_QUOTE = 20;

/** The code spans of the first column of the Troubleshooting table. */
function quotedMessages(): string[] {
  const start = README.indexOf("## Troubleshooting");
  const section = README.slice(start, README.indexOf("\n## ", start + 1));
  return section
    .split("\n")
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

describe("README's Troubleshooting quotes the settings messages as the code makes them", () => {
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
    // README shows the emulator's own port.
    expect(isQuoted(failure.reason.replace(stopped, "http://127.0.0.1:4580"))).toBe(true);
  });

  test("a host that does not resolve", () => {
    const origin = { baseUrl: "https://api.squarecloud.app", urlSource: "the default of squarecloud:platformUrl", secrets: [] };
    const unresolved = Object.assign(new Error("getaddrinfo ENOTFOUND api.squarecloud.app"), { code: "ENOTFOUND" });
    expect(isQuoted(errorFromTransport(READ_ACCOUNT, unresolved, NOT_TIMED_OUT, origin).message)).toBe(true);
  });

  test("a skip switch that is neither true nor false", () => {
    let message = "";
    try {
      resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:skipCredentialsCheck": "yes" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(isQuoted(message)).toBe(true);
  });

  test("a message the code does not make is not taken for a quote", () => {
    expect(isQuoted("read account failed: CONNECTION_REFUSED (ECONNREFUSED, GET /v2/users/me): something else")).toBe(false);
  });
});
