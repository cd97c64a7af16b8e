import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { DEFAULT_RETRY_POLICY } from "../../../provider/client/retry";
import { closedPort } from "../../unit/helpers/stub-server";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// The settings are checked at preview: a refused key or an unreachable URL fails `pulumi preview`
// (a pull request's), naming the setting to fix, with read-only requests only; the skip switch
// allows an offline preview. User errors are printed once, without a stack trace.

const suite = emulatorSuite();
const WRONG_KEY = "3155597145698959364-wrongwrongwrongwrongwrong";
/** Valid resources of each API: the check runs once the inputs pass. */
const CASES = {
  cache: { kind: "Database", args: { name: "cache", type: "redis", memory: 512, version: "7.4.5" } },
  team: { kind: "Workspace", args: { name: "team_creds" } },
  notes: { kind: "BlobObject", args: { name: "notes", text: "n".repeat(2048) } },
};
/** A frame of a stack trace as Node prints it. */
const STACK_FRAME = /^\s+at .+[(:]\d+/m;

let program: ProgramStack;

beforeAll(async () => {
  // No provider settings from the environment: each preview's stack config decides them.
  const env = {
    SQUARECLOUD_API_KEY: "",
    SQUARECLOUD_PLATFORM_URL: "",
    SQUARECLOUD_BLOB_URL: "",
    SQUARECLOUD_SKIP_CREDENTIALS_CHECK: "",
  };
  program = suite.keep(await programStack({ program: "bad-input", env }));
});

beforeEach(async () => {
  await suite.emulator.admin.clearRequests();
});

/** Previews with the emulator's settings changed by `config`, settings absent from it removed. */
async function preview(config: ConfigMap, cases: object = CASES): Promise<string> {
  const settings = { ...emulatorConfig(suite.emulator), ...config };
  for (const key of ["squarecloud:apiKey", "squarecloud:skipCredentialsCheck"]) {
    if (!(key in settings)) await program.stack.removeConfig(key);
  }
  await program.stack.setAllConfig({ ...settings, cases: { value: JSON.stringify(cases) } });
  return program.stack.preview().then(
    () => "",
    (err: Error) => String(err.message),
  );
}

function occurrences(text: string, fragment: string): number {
  return text.split(fragment).length - 1;
}

/**
 * The engine's Diagnostics section, where it lists each error once: the progress lines show it too,
 * and the Automation API's error repeats the CLI's output.
 */
function diagnostics(output: string): string {
  const start = output.indexOf("Diagnostics:");
  return output.slice(start, output.indexOf("Resources:", start));
}

test("a refused key fails the preview naming its setting, after one read and no change", async () => {
  const output = await preview({ "squarecloud:apiKey": { value: WRONG_KEY, secret: true } });
  expect(output).toContain("has a problem: read account failed: ACCESS_DENIED (HTTP 401, GET /v2/users/me)");
  expect(output).toContain("The API key was refused; it came from squarecloud:apiKey.");
  expect(output).not.toContain(WRONG_KEY);
  const requests = await suite.emulator.admin.requests();
  expect(requests.filter((request) => request.method !== "GET")).toEqual([]);
  // Once per provider process, whatever the number of resources.
  expect(requests.filter((request) => request.route === "GET /v2/users/me")).toHaveLength(1);
});

test("a valid key passes with one read of each API, the blob one for the blob resource", async () => {
  expect(await preview({})).toBe("");
  const routes = (await suite.emulator.admin.requests()).map((request) => request.route).sort();
  expect(routes).toEqual(["GET /v1/account/stats", "GET /v2/users/me"]);
});

test("an unreachable URL fails the preview naming it and its setting, after a bounded number of connections", async () => {
  const dropping = await connectionCounter();
  try {
    const output = await preview({ "squarecloud:platformUrl": { value: `${dropping.url}/v2` } });
    expect(output).toContain(
      `GET /v2/v2/users/me): the connection to ${dropping.url}/v2 (from squarecloud:platformUrl) broke`,
    );
    // One check for the three resources, each connection an attempt of it.
    expect(dropping.connections()).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
  } finally {
    await dropping.close();
  }
});

test("a local URL nobody listens at asks for the emulator; the skip switch lets the preview pass offline", async () => {
  const stopped = `http://127.0.0.1:${await closedPort()}`;
  const offline = { "squarecloud:platformUrl": { value: stopped }, "squarecloud:blobUrl": { value: stopped } };
  const output = await preview(offline);
  expect(output).toContain(`nothing accepted the connection at ${stopped} (from squarecloud:`);
  expect(output).toContain("For the local emulator, start it first: npx squarecloud-emulator");
  expect(output).toContain("To preview without reaching the service, set squarecloud:skipCredentialsCheck to true");

  expect(await preview({ ...offline, "squarecloud:skipCredentialsCheck": { value: "true" } })).toBe("");
});

test("a missing key is printed once, without a stack trace", async () => {
  const output = await preview({ "squarecloud:apiKey": { value: "" } });
  const message = "Square Cloud API key is not set: run `pulumi config set squarecloud:apiKey --secret`";
  expect(occurrences(diagnostics(output), message)).toBe(1);
  expect(output).not.toMatch(STACK_FRAME);
  expect(await suite.emulator.admin.requests()).toEqual([]);
});

test("a FileAsset of a missing file is printed once, without a stack trace or the error's internals", async () => {
  const output = await preview(
    {},
    { logo: { kind: "BlobObject", args: { name: "logo", file: "assets/missing.png" } } },
  );
  expect(occurrences(diagnostics(output), 'BlobObject "logo": source must name an existing file')).toBe(1);
  expect(output).not.toMatch(STACK_FRAME);
  expect(output).not.toContain("Circular");
  expect(output).not.toContain("unhandled exception");
});

/** A local TCP server that counts connections and closes each at once, before any answer. */
async function connectionCounter(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
