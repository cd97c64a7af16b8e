/**
 * The plugin's start-up: from process start to the handshake (the port on the first line of
 * stdout, which the engine waits for), today's form beside the release archive's. "system node"
 * is the bundle launched by the node on PATH (bench/lib/blob-stack.ts's plugin); "archive" is the
 * host's archive of `npm run build:plugin`, extracted, launched through its own Node with no node
 * on PATH. Also prints the size of every archive in dist/plugin/.
 *
 *   npm run bench:plugin                 # 15 starts each, alternating
 *   npm run bench:plugin -- --starts 30
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { archiveName, hostTarget } from "../scripts/plugin-archive";
import { bundlePlugin } from "../scripts/plugin-bundle";
import { packageVersion } from "../provider/client/version";
import { repoRoot } from "../tests/e2e/engine";
import { integerOption } from "./lib/options";
import { describeMachine, machine, table, writeResults } from "./lib/report";
import { formatSpread, spread } from "./lib/spread";
import { scratchRoot } from "./lib/stack";

const PLUGIN = "pulumi-resource-squarecloud";

/** Milliseconds from spawning `executable` to the first line on its stdout; the process is then stopped. */
function handshake(executable: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(executable, [], { env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("\n")) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      child.kill();
      if (!/^\d+\n/.test(out)) reject(new Error(`not a handshake: ${JSON.stringify(out)}`));
      else resolve(ms);
    });
    child.on("error", reject);
    child.on(
      "exit",
      (code) => out.includes("\n") || reject(new Error(`${executable} exited with ${code} before its handshake`)),
    );
  });
}

/** A directory of the tools the archive's launcher uses, and no node. */
function pathWithoutNode(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of ["readlink"]) {
    const link = path.join(dir, tool);
    if (!existsSync(link))
      symlinkSync(execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), link);
  }
  return dir;
}

async function main(): Promise<void> {
  const starts = integerOption("starts", 15, 1);
  const work = path.join(scratchRoot, "plugin-startup");
  rmSync(work, { recursive: true, force: true });
  const archive = path.join(repoRoot, "dist", "plugin", archiveName(packageVersion(), hostTarget()));
  if (!existsSync(archive)) throw new Error(`no ${archive}: run npm run build:plugin first`);
  const extracted = path.join(work, "archive");
  mkdirSync(extracted, { recursive: true });
  execFileSync("tar", ["-xzf", archive, "-C", extracted]);
  const today = bundlePlugin(
    path.join(repoRoot, "dist", "provider", "plugin", "main.js"),
    path.join(work, "system-node"),
  );

  const forms = {
    "system node": { executable: path.join(today, PLUGIN), env: process.env },
    archive: { executable: path.join(extracted, PLUGIN), env: { PATH: pathWithoutNode(path.join(work, "bin")) } },
  };
  const samples: Record<string, number[]> = { "system node": [], archive: [] };
  for (let i = 0; i < starts; i++) {
    for (const [name, form] of Object.entries(forms)) samples[name]!.push(await handshake(form.executable, form.env));
  }
  const nodeVersions = {
    "system node": process.version,
    archive: execFileSync(path.join(extracted, "node"), ["--version"], { encoding: "utf8" }).trim(),
  };

  const dir = path.dirname(archive);
  const archives = readdirSync(dir)
    .filter((f) => f.endsWith(".tar.gz"))
    .sort()
    .map((f) => ({ file: f, bytes: statSync(path.join(dir, f)).size }));
  const m = machine();
  console.log(describeMachine(m));
  console.log(`\nStart-up to handshake, ms (median [min-max] of ${starts})`);
  console.log(
    table(
      ["form", "node", "start-up"],
      Object.keys(forms).map((f) => [
        f,
        nodeVersions[f as keyof typeof nodeVersions],
        formatSpread(spread(samples[f]!), 0),
      ]),
    ),
  );
  console.log("\nArchives");
  console.log(
    table(
      ["archive", "MB"],
      archives.map((a) => [a.file, (a.bytes / 1e6).toFixed(1)]),
    ),
  );
  console.log(`\n${writeResults("plugin-startup", { machine: m, starts, samples, nodeVersions, archives })}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
