import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { packageVersion } from "../../../provider/client/version";
import { PLUGIN_BUNDLE } from "../../../provider/plugin/code-cache";
import { archiveName, hostTarget, launcherName, nodeName } from "../../../scripts/plugin-archive";
import { reproducibleTarGz } from "../../../scripts/reproducible-tar";
import { installedToolDir } from "../../install-script";
import { archiveDir, builtArchive, pinnedTargets, readTarGz } from "../../plugin-archives";

// What the engine downloads for each target, checked without that machine: the archive's name,
// its files, the launcher the engine looks for, and the machine its Node executable is built for.
// The host's archive and, on x86-64 Linux, the linux-arm64 one (under qemu) also run.

jest.setTimeout(120_000);

/** The format and machine of an executable, read from its header. */
function executableFormat(bin: Buffer): string {
  if (bin.readUInt32BE(0) === 0x7f454c46) {
    const machine = { 62: "x86-64", 183: "aarch64" }[bin.readUInt16LE(18)] ?? `machine ${bin.readUInt16LE(18)}`;
    return `ELF ${bin[4] === 2 ? "64-bit" : "32-bit"} ${machine}`;
  }
  if (bin.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = { 16777223: "x86_64", 16777228: "arm64" }[bin.readUInt32LE(4)] ?? `cpu ${bin.readUInt32LE(4)}`;
    return `Mach-O 64-bit ${cpu}`;
  }
  if (bin.toString("latin1", 0, 2) === "MZ") {
    const pe = bin.readUInt32LE(0x3c);
    if (bin.toString("latin1", pe, pe + 4) !== "PE\0\0") return "MZ without PE header";
    const machine =
      { 34404: "x86-64", 43620: "arm64" }[bin.readUInt16LE(pe + 4)] ?? `machine ${bin.readUInt16LE(pe + 4)}`;
    return `${bin.readUInt16LE(pe + 24) === 0x20b ? "PE32+" : "PE32"} ${machine}`;
  }
  return "unknown";
}

const EXPECTED_FORMAT: Record<string, string> = {
  "linux-amd64": "ELF 64-bit x86-64",
  "linux-arm64": "ELF 64-bit aarch64",
  "darwin-amd64": "Mach-O 64-bit x86_64",
  "darwin-arm64": "Mach-O 64-bit arm64",
  "windows-amd64": "PE32+ x86-64",
  "windows-arm64": "PE32+ arm64",
};

/** The first line the plugin prints (its port, which the engine reads), or an error. */
function handshake(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) child.kill();
    });
    child.on("error", reject);
    child.on("close", () =>
      out.includes("\n") ? resolve(out.split("\n")[0]!) : reject(new Error(`no handshake; stderr: ${err}`)),
    );
  });
}

const targets = pinnedTargets();
let scratch: string;
beforeAll(() => (scratch = mkdtempSync(path.join(tmpdir(), "squarecloud-archives-"))));
afterAll(() => scratch && rmSync(scratch, { recursive: true, force: true }));

test("Node is pinned for every target the engine names: linux, darwin and windows on amd64 and arm64", () => {
  expect(targets).toEqual(Object.keys(EXPECTED_FORMAT).sort());
});

test.each(Object.keys(EXPECTED_FORMAT))(
  "%s: the archive holds the launcher, Node, its license, the bundle and the main.js that runs it, owned by root at time 0",
  (target) => {
    const entries = readTarGz(builtArchive(target));
    expect([...entries.keys()]).toEqual(
      [launcherName(target), nodeName(target), "LICENSE.node", "main.js", PLUGIN_BUNDLE].sort(),
    );
    for (const entry of entries.values())
      expect([entry.type, entry.uid, entry.gid, entry.mtime]).toEqual(["0", 0, 0, 0]);
    expect(entries.get(launcherName(target))!.mode).toBe(0o755);
    expect(entries.get(nodeName(target))!.mode).toBe(0o755);
    expect(executableFormat(entries.get(nodeName(target))!.data)).toBe(EXPECTED_FORMAT[target]);
    expect(entries.get("LICENSE.node")!.data.toString()).toMatch(/^Node\.js is licensed for use as follows:/);
  },
);

test("the Windows launcher is the .cmd the engine tries after .exe, running node.exe beside it", () => {
  const launcher = readTarGz(builtArchive("windows-amd64")).get("pulumi-resource-squarecloud.cmd")!.data.toString();
  expect(launcher).toBe('@"%~dp0node.exe" --experimental-async-context-frame "%~dp0main.js" %*\r\n');
});

test("the build wrote SHA256SUMS for the whole set", () => {
  const sha256 = (name: string) =>
    createHash("sha256")
      .update(readFileSync(path.join(archiveDir, name)))
      .digest("hex");
  const names = targets.map((t) => archiveName(packageVersion(), t));
  expect(readFileSync(path.join(archiveDir, "SHA256SUMS"), "utf8")).toBe(
    names.map((name) => `${sha256(name)}  ${name}\n`).join(""),
  );
});

test("the host's plugin answers the engine's start with no node on PATH, through a symlink, from another directory", async () => {
  const plugin = path.join(scratch, "host", "plugin");
  mkdirSync(plugin, { recursive: true });
  execFileSync("tar", ["-xzf", builtArchive(), "-C", plugin]);
  // What a PATH without node holds: the one tool the launcher needs to follow a symlink.
  const bin = path.join(scratch, "host", "bin");
  mkdirSync(bin);
  symlinkSync(
    execFileSync("sh", ["-c", "command -v readlink"], { encoding: "utf8" }).trim(),
    path.join(bin, "readlink"),
  );
  const linked = path.join(scratch, "host", "links", "pulumi-resource-squarecloud");
  mkdirSync(path.dirname(linked));
  symlinkSync(path.join("..", "plugin", launcherName(hostTarget())), linked);
  expect(() => execFileSync("sh", ["-c", "command -v node"], { env: { PATH: bin } })).toThrow();
  // The plugin's code cache goes to the scratch directory, not the user's.
  const port = await handshake(linked, [], {
    cwd: tmpdir(),
    env: { PATH: bin, XDG_CACHE_HOME: path.join(scratch, "cache") },
  });
  expect(port).toMatch(/^\d+$/);
});

// qemu-user runs a foreign Linux executable on x86-64 Linux only.
const underQemu = hostTarget() === "linux-amd64" ? test : test.skip;
underQemu("the linux-arm64 plugin answers the engine's start under qemu-aarch64", async () => {
  const qemu = (process.env.QEMU_AARCH64 ?? installedToolDir("install-qemu-user", "qemu-aarch64")).split(" ");
  const plugin = path.join(scratch, "arm64");
  mkdirSync(plugin);
  execFileSync("tar", ["-xzf", builtArchive("linux-arm64"), "-C", plugin]);
  expect(
    execFileSync(qemu[0]!, [...qemu.slice(1), path.join(plugin, "node"), "-p", "process.arch"], {
      encoding: "utf8",
    }).trim(),
  ).toBe("arm64");
  const port = await handshake(qemu[0]!, [...qemu.slice(1), path.join(plugin, "node"), path.join(plugin, "main.js")], {
    cwd: tmpdir(),
    env: { XDG_CACHE_HOME: path.join(scratch, "cache") },
  });
  expect(port).toMatch(/^\d+$/);
});

test("an archive's bytes depend on its entries alone: not their order, the clock or the host", async () => {
  const a = { name: "b", mode: 0o644, data: Buffer.from("two") };
  const b = { name: "a", mode: 0o755, data: Buffer.from("one") };
  const first = await reproducibleTarGz([a, b]);
  const second = await reproducibleTarGz([b, a]);
  expect(second.equals(first)).toBe(true);
  // gzip header: no file name flag, mtime 0, OS Unix.
  expect([first[3], first.readUInt32LE(4), first[9]]).toEqual([0, 0, 3]);
  const file = path.join(scratch, "small.tar.gz");
  writeFileSync(file, first);
  expect(execFileSync("tar", ["-tvzf", file], { encoding: "utf8" })).toMatch(
    /^-rwxr-xr-x 0\/0 +3 1970-01-01 00:00 a\n-rw-r--r-- 0\/0 +3 1970-01-01 00:00 b\n$/,
  );
});
