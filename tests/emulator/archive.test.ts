import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { SEED_ACCOUNTS } from "../../emulator";
import { hostTarget, launcherName, nodeName } from "../../scripts/plugin-archive";
import { builtEmulatorArchive, readTarGz } from "../plugin-archives";
import { caller, expectSuccess, waitForOutput } from "./helpers";

// The emulator as users without Node.js or a clone get it: the release's archive for their
// machine, unpacked anywhere, its launcher run through a link on their PATH, with no node there.
// scripts/test builds the host's archive (the release builds every target's the same way).

const launcher = launcherName(hostTarget(), "squarecloud-emulator");
let scratch: string;
let child: ChildProcessWithoutNullStreams | undefined;
beforeAll(() => (scratch = mkdtempSync(path.join(tmpdir(), "squarecloud-emulator-archive-"))));
afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

test("the archive holds the launcher, Node, its license and the bundled emulator, owned by root at time 0", () => {
  const entries = readTarGz(builtEmulatorArchive());
  expect([...entries.keys()]).toEqual([launcher, nodeName(hostTarget()), "LICENSE.node", "main.js"].sort());
  for (const entry of entries.values()) expect([entry.type, entry.uid, entry.gid, entry.mtime]).toEqual(["0", 0, 0, 0]);
  expect(entries.get(launcher)!.mode).toBe(0o755);
});

test("its launcher starts the emulator with no node on PATH, through a link, from another directory; it serves, then stops on SIGTERM", async () => {
  const unpacked = path.join(scratch, "squarecloud-emulator");
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", builtEmulatorArchive(), "-C", unpacked]);
  // The user's PATH: a link to the launcher, and the one tool the launcher needs to follow it.
  const bin = path.join(scratch, "bin");
  mkdirSync(bin);
  symlinkSync(path.join(unpacked, launcher), path.join(bin, launcher));
  symlinkSync(
    execFileSync("sh", ["-c", "command -v readlink"], { encoding: "utf8" }).trim(),
    path.join(bin, "readlink"),
  );
  expect(() => execFileSync("sh", ["-c", "command -v node"], { env: { PATH: bin } })).toThrow();

  child = spawn(launcher, ["--platform-port", "0", "--blob-port", "0"], { cwd: tmpdir(), env: { PATH: bin } });
  const output = await waitForOutput(child, "Ctrl+C to stop.");
  const platformUrl = /platform API\s+(http:\/\/\S+)/.exec(output)?.[1];
  expect(platformUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const me = expectSuccess(await caller(platformUrl!)("GET", "/v2/users/me"));
  expect(me.user.email).toBe(SEED_ACCOUNTS.alice.email);

  const exited = new Promise<number | null>((resolve) => child!.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});
