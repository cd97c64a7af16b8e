import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { hostTarget, launcherName } from "../../../scripts/plugin-archive";
import { installedToolDir } from "../../install-script";
import { builtArchive } from "../../plugin-archives";
import { type AttachablePlugin, attachedLifecycle } from "../harness/attached-plugin";

// The windows-amd64 archive run, not only inspected: under Wine (Debian's wine64 8.0 of
// scripts/install-wine, a prefix set to Windows 10) its .cmd launcher starts the archive's Windows
// Node, from another directory, as the engine on Windows starts a .cmd (cmd /c). The Linux engine
// attaches to the port it prints and runs a YAML program's lifecycle on it.
//
// The plugin's stdout is a file: Node under Wine cannot write to a Linux pipe (it opens its stdout
// as a Windows pipe handle, which Wine's stand-in for a pipe is not, and stops with `Error: open
// EBADF` at its first output), so the engine's own way of starting a plugin is not what runs here.
// And Wine lacks a socket option that Windows has and the plugin's Node sets before each connect:
// the Node starts with harness/keepalive-after-connect, which sets it after.

const target = "windows-amd64";
let scratch: string;
afterAll(() => scratch && rmSync(scratch, { recursive: true, force: true }));

/** A Linux path as Wine's Windows programs see it: under Z:, the whole Linux file system. */
function windowsPath(file: string): string {
  return `Z:${file.split("/").join("\\")}`;
}

/** The first line `started` writes to `file`, once it has; or an error with its stderr if it ends first. */
async function firstLine(file: string, started: ChildProcess, stderr: string): Promise<string> {
  const ended = once(started, "exit");
  const watcher = watch(file);
  try {
    for (;;) {
      const text = readFileSync(file, "utf8");
      if (text.includes("\n")) return text.slice(0, text.indexOf("\n")).trim();
      if (started.exitCode !== null || started.signalCode !== null)
        throw new Error(`the plugin ended before printing its port; stderr:\n${readFileSync(stderr, "utf8")}`);
      await Promise.race([once(watcher, "change"), ended]);
    }
  } finally {
    watcher.close();
  }
}

async function startUnderWine(): Promise<AttachablePlugin> {
  scratch = mkdtempSync(path.join(tmpdir(), "squarecloud-windows-"));
  const plugin = path.join(scratch, "plugin");
  const elsewhere = path.join(scratch, "elsewhere");
  mkdirSync(plugin);
  mkdirSync(elsewhere);
  execFileSync("tar", ["-xzf", builtArchive(target), "-C", plugin]);
  const stdout = path.join(scratch, "stdout");
  const stderr = path.join(scratch, "stderr");
  const [out, err] = [openSync(stdout, "w"), openSync(stderr, "w")];
  // A group of its own, so the test ends cmd.exe and the Node it runs, and nothing else.
  const wineBin = process.env.WINE_BIN_DIR ?? installedToolDir("install-wine", "Wine");
  const started = spawn(
    path.join(wineBin, "wine"),
    ["cmd", "/c", windowsPath(path.join(plugin, launcherName(target)))],
    {
      cwd: elsewhere,
      detached: true,
      stdio: ["ignore", out, err],
      env: {
        ...process.env,
        WINEDEBUG: "fixme-all",
        // Node reads backslashes in NODE_OPTIONS as escapes; Windows takes forward slashes too.
        NODE_OPTIONS: `--require "Z:${require.resolve("../harness/keepalive-after-connect")}"`,
      },
    },
  );
  closeSync(out);
  closeSync(err);
  const first = await firstLine(stdout, started, stderr);
  const port = Number(first);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`the plugin printed ${JSON.stringify(first)}, not a port`);
  return {
    port,
    running: () => started.exitCode === null && started.signalCode === null,
    stop: () => {
      if (started.pid !== undefined && started.exitCode === null) process.kill(-started.pid, "SIGTERM");
    },
  };
}

// Debian's wine64 runs on x86-64 Linux only (scripts/install-wine), as CI's machine is.
(hostTarget() === "linux-amd64" ? describe : describe.skip)("under Wine", () =>
  attachedLifecycle({
    stack: "windows-attach",
    prefix: "wine",
    title: "the windows-amd64 plugin, attached: up, preview with nothing to change, destroy",
    start: startUnderWine,
  }),
);
