/**
 * The plugin's start-up: from process start to the handshake (the port on the first line of
 * stdout, which the engine waits for), and to the answer of its first resource call (GetPluginInfo,
 * Configure, then the Check of a blob object, whose settings check makes two requests to the
 * in-process emulator), as wall time and as the CPU time the process had used by then (Linux
 * `/proc`). Forms, started in turn:
 *
 * - **empty node**: a script that prints a line, the least any Node process costs;
 * - **native floor**: the no-op plugin of bench:native (lib/native-floor.ts), bundled and run as ours;
 * - **system node**: the plugin as bench:native runs it, launched by the node on PATH;
 * - the same three on the Node of the host's archive of `npm run build:plugin`, through its
 *   launcher: **archive** is the plugin as users run it (lib/archive-plugin.ts).
 *
 * Each form's handshake and first call are also given over the empty start of its own Node.
 * Each plugin form starts from its code cache (provider/plugin/code-cache.ts), written beforehand,
 * and also with none ("first start": the cache directory emptied before each start). Also prints
 * the size of every archive in dist/plugin/.
 *
 *   npm run bench:plugin                 # 15 starts of each
 *   npm run bench:plugin -- --starts 30
 */
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { SEED_ACCOUNTS, startEmulator } from "../emulator";
import { ASSET_SIG, SIG_KEY } from "../provider/signatures";
import { emptyproto, grpc, provproto, provrpc } from "../provider/plugin/wire";
import { PLUGIN_EXECUTABLE as PLUGIN } from "../provider/release-assets";
import { bundlePlugin } from "../scripts/plugin-bundle";
import { ARCHIVE_DIR, archiveNode, archivePlugin, PLUGIN_ENTRY } from "./lib/archive-plugin";
import { integerOption } from "./lib/options";
import { describeMachine, machine, table, writeResults } from "./lib/report";
import { formatSpread, pairedRatios, spread } from "./lib/spread";
import { scratchRoot } from "./lib/stack";

const { Struct } = require("google-protobuf/google/protobuf/struct_pb");

interface Form {
  command: string[];
  /** The Node that runs it: the one on PATH, or the archive's. */
  node: "system" | "archive";
  env: NodeJS.ProcessEnv;
  /** Answers resource calls: a plugin, not the empty script. */
  plugin: boolean;
  /** Its cache directory is emptied before each start. */
  firstStart?: boolean;
}

/** Wall and CPU milliseconds at the handshake and at the first call's answer. */
interface Start {
  handshake: { wall: number; cpu: number };
  firstCall?: { wall: number; cpu: number };
}

/** CPU time the process `pid` has used so far, ms (utime + stime, all its threads). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function call<T>(client: any, method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method](request, (err: Error | null, value: T) => (err ? reject(err) : resolve(value))),
  );
}

/** The calls the engine makes before a plugin serves a resource, then that resource's check. */
async function firstCall(port: string, config: Record<string, string>, n: number): Promise<void> {
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    await call(client, "getPluginInfo", new emptyproto.Empty());
    const configure = new provproto.ConfigureRequest();
    configure.setArgs(Struct.fromJavaScript(config));
    configure.setAcceptsecrets(true);
    await call(client, "configure", configure);
    const check = new provproto.CheckRequest();
    check.setUrn(`urn:pulumi:bench::startup::squarecloud:index:BlobObject::b${n}`);
    check.setType("squarecloud:index:BlobObject");
    check.setOlds(Struct.fromJavaScript({}));
    check.setNews(
      Struct.fromJavaScript({
        name: `startup${n}`,
        prefix: "startup",
        source: { [SIG_KEY]: ASSET_SIG, text: "x".repeat(1100) },
      }),
    );
    const checked = await call<any>(client, "check", check);
    const failures = checked.getFailuresList().map((f: any) => f.getReason());
    if (failures.length) throw new Error(`check failed: ${failures.join("; ")}`);
  } finally {
    client.close();
  }
}

/**
 * One start of `form`: the handshake, then (for a plugin) its first call; the process is then
 * stopped, once `before` resolves when given.
 */
async function start(
  form: Form,
  config: Record<string, string>,
  n: number,
  before?: () => Promise<void>,
): Promise<Start> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  const child = spawn(form.command[0]!, form.command.slice(1), { env: form.env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      child.on("error", reject);
      child.on("exit", (code) =>
        reject(new Error(`${form.command.join(" ")} exited with ${code} before its handshake`)),
      );
    });
    const result: Start = { handshake: { wall: elapsed(), cpu: cpuMs(child.pid!) } };
    if (form.plugin) {
      if (!/^\d+$/.test(port)) throw new Error(`not a handshake: ${JSON.stringify(port)}`);
      await firstCall(port, config, n);
      result.firstCall = { wall: elapsed(), cpu: cpuMs(child.pid!) };
    }
    await before?.();
    return result;
  } finally {
    child.kill();
    await exited;
  }
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
  const floorEntry = path.join(__dirname, "lib", "native-floor.js");
  const extracted = archivePlugin(path.join(work, "archive"));
  const archiveFloor = archivePlugin(path.join(work, "archive-floor"), floorEntry);
  const systemNode = bundlePlugin(PLUGIN_ENTRY, path.join(work, "system-node"));
  const floor = bundlePlugin(floorEntry, path.join(work, "floor"));
  const empty = path.join(work, "empty.js");
  writeFileSync(empty, 'console.log("0");\n');

  const caches = { warm: path.join(work, "cache"), cold: path.join(work, "first-start-cache") };
  const env = (cache: string, base: NodeJS.ProcessEnv = process.env) => ({ ...base, XDG_CACHE_HOME: cache });
  const archiveEnv = { PATH: pathWithoutNode(path.join(work, "bin")) };
  const forms: Record<string, Form> = {
    "empty node": { command: [process.execPath, empty], node: "system", env: process.env, plugin: false },
    "native floor": { command: [path.join(floor, PLUGIN)], node: "system", env: env(caches.warm), plugin: true },
    "system node": { command: [path.join(systemNode, PLUGIN)], node: "system", env: env(caches.warm), plugin: true },
    "system node, first start": {
      command: [path.join(systemNode, PLUGIN)],
      node: "system",
      env: env(caches.cold),
      plugin: true,
      firstStart: true,
    },
    "empty node, archive's": { command: [archiveNode(extracted), empty], node: "archive", env: {}, plugin: false },
    "archive floor": {
      command: [path.join(archiveFloor, PLUGIN)],
      node: "archive",
      env: env(caches.warm, archiveEnv),
      plugin: true,
    },
    archive: {
      command: [path.join(extracted, PLUGIN)],
      node: "archive",
      env: env(caches.warm, archiveEnv),
      plugin: true,
    },
    "archive, first start": {
      command: [path.join(extracted, PLUGIN)],
      node: "archive",
      env: env(caches.cold, archiveEnv),
      plugin: true,
      firstStart: true,
    },
  };
  const emptyOf = { system: "empty node", archive: "empty node, archive's" };

  const emulator = await startEmulator();
  const config = { apiKey: SEED_ACCOUNTS.dave.apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl };
  const samples: Record<string, Start[]> = Object.fromEntries(Object.keys(forms).map((name) => [name, []]));
  try {
    // Each plugin form once, kept running until it has written its cache (a second after its start).
    const cached = Object.values(forms).filter((form) => form.plugin && !form.firstStart);
    for (const [i, form] of cached.entries()) await start(form, config, 0, () => waitForCache(caches.warm, i + 1));
    for (let i = 0; i < starts; i++) {
      for (const [name, form] of Object.entries(forms)) {
        if (form.firstStart) rmSync(caches.cold, { recursive: true, force: true });
        samples[name]!.push(await start(form, config, i));
      }
    }
  } finally {
    await emulator.close();
  }

  const nodeVersions = {
    system: process.version,
    archive: execFileSync(archiveNode(extracted), ["--version"], { encoding: "utf8" }).trim(),
  };
  const values = (name: string, pick: (s: Start) => number | undefined) =>
    samples[name]!.map(pick).filter((v): v is number => v !== undefined);
  const column = (name: string, pick: (s: Start) => number | undefined) => {
    const picked = values(name, pick);
    return picked.length ? formatSpread(spread(picked), 0) : "-";
  };
  // Start i of a plugin over start i of its Node's empty script (its handshake is all it does):
  // both ran within one turn of the forms.
  const overEmpty = (name: string, stage: "handshake" | "firstCall", measure: "wall" | "cpu") => {
    const empties = values(emptyOf[forms[name]!.node], (s) => s.handshake[measure]);
    return formatSpread(
      spread(
        pairedRatios(
          values(name, (s) => s[stage]?.[measure]),
          empties,
        ),
      ),
      2,
    );
  };
  const m = machine();
  console.log(describeMachine(m));
  console.log(`\nStart-up, ms: median (min-max) of ${starts} starts each, taken in turn`);
  console.log(
    table(
      ["form", "node", "handshake wall", "handshake CPU", "first call wall", "first call CPU"],
      Object.keys(forms).map((name) => [
        name,
        nodeVersions[forms[name]!.node],
        column(name, (s) => s.handshake.wall),
        column(name, (s) => s.handshake.cpu),
        column(name, (s) => s.firstCall?.wall),
        column(name, (s) => s.firstCall?.cpu),
      ]),
    ),
  );
  console.log(
    `\nOver the empty start of the same Node (the empty script's handshake), start by start: median (min-max)`,
  );
  console.log(
    table(
      ["form", "handshake wall", "handshake CPU", "first call wall", "first call CPU"],
      Object.keys(forms)
        .filter((name) => forms[name]!.plugin)
        .map((name) => [
          name,
          overEmpty(name, "handshake", "wall"),
          overEmpty(name, "handshake", "cpu"),
          overEmpty(name, "firstCall", "wall"),
          overEmpty(name, "firstCall", "cpu"),
        ]),
    ),
  );

  const dir = ARCHIVE_DIR;
  const archives = readdirSync(dir)
    .filter((f) => f.endsWith(".tar.gz"))
    .sort()
    .map((f) => ({ file: f, bytes: statSync(path.join(dir, f)).size }));
  console.log("\nArchives");
  console.log(
    table(
      ["archive", "MB"],
      archives.map((a) => [a.file, (a.bytes / 1e6).toFixed(1)]),
    ),
  );
  console.log(`\n${writeResults("plugin-startup", { machine: m, starts, samples, nodeVersions, archives })}`);
}

/** Resolves once `dir` holds `count` code caches. */
async function waitForCache(dir: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  const written = () =>
    existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".v8cache")).length : 0;
  while (written() < count) {
    if (Date.now() > deadline) throw new Error(`no code cache written in ${dir}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
