import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { SEED_ACCOUNTS } from "../../emulator";
import { caller, expectSuccess, fileForm, waitForOutput } from "./helpers";

const CLI = join(__dirname, "..", "..", "emulator", "cli.js");

/** Emulators still running; one that a failed assertion left behind is stopped after its test. */
const running = new Set<ChildProcessWithoutNullStreams>();

function startCli(...args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [CLI, "--platform-port", "0", "--blob-port", "0", ...args]);
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
});

test("prints URLs, seeded keys and an export line; serves; stops on SIGTERM", async () => {
  const child = startCli();
  const output = await waitForOutput(child, "Ctrl+C");
  const platformUrl = /platform API\s+(http:\/\/\S+)/.exec(output)?.[1];
  const blobUrl = /blob API\s+(http:\/\/\S+)/.exec(output)?.[1];
  expect(platformUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(blobUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  for (const account of Object.values(SEED_ACCOUNTS)) expect(output).toContain(account.apiKey);
  expect(output).toContain(
    `export SQUARECLOUD_PLATFORM_URL=${platformUrl} SQUARECLOUD_BLOB_URL=${blobUrl} SQUARECLOUD_API_KEY=${SEED_ACCOUNTS.alice.apiKey}`,
  );
  expect(expectSuccess(await caller(platformUrl!)("GET", "/v2/users/me")).user.email).toBe(SEED_ACCOUNTS.alice.email);
  expectSuccess(await caller(blobUrl!)("GET", "/v1/account/stats"));
  // The admin surface takes no key: off unless --admin asks for it.
  expect(output).toContain("admin         off");
  expect((await caller(platformUrl!)("GET", "/__emulator/requests")).status).toBe(404);

  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

test("--admin serves the admin surface", async () => {
  const child = startCli("--admin");
  const output = await waitForOutput(child, "Ctrl+C");
  const platformUrl = /platform API\s+(http:\/\/\S+)/.exec(output)?.[1];
  expect(output).toContain(`${platformUrl}/__emulator/`);
  expect((await caller(platformUrl!)("GET", "/__emulator/counters")).status).toBe(200);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

test("--object-ids plain leaves the expiry suffix out of upload ids", async () => {
  const child = startCli("--object-ids", "plain");
  const output = await waitForOutput(child, "Ctrl+C");
  const blobUrl = /blob API\s+(http:\/\/\S+)/.exec(output)?.[1];
  const uploaded = expectSuccess(
    await caller(blobUrl!)("POST", "/v1/objects?name=plainid&expire=3", { body: fileForm(1024, "text/plain") }),
  );
  expect(uploaded.id).toMatch(/^\d+\/plainid_[a-z0-9]{8}-[0-9a-f]{4}\.txt$/);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

test("--help prints usage; a bad port or id form fails with a message", async () => {
  const help = spawn(process.execPath, [CLI, "--help"]);
  let text = "";
  help.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
  expect(await new Promise((resolve) => help.once("exit", resolve))).toBe(0);
  expect(text).toContain("--platform-port");
  expect(text).toContain("--data-dir");

  expect(text).toContain("--object-ids");

  for (const [flag, value] of [
    ["--platform-port", "70000"],
    ["--object-ids", "short"],
  ]) {
    const bad = spawn(process.execPath, [CLI, flag, value]);
    let errors = "";
    bad.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    expect(await new Promise((resolve) => bad.once("exit", resolve))).toBe(1);
    expect(errors).toContain(flag);
  }
});
