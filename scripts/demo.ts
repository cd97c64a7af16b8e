// The main job: starts the emulator (persistent, fixed ports), runs a real `pulumi up` of
// examples/showcase against it, then shows what exists, secrets masked, and what to try next.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, type SeededAccount, startEmulator } from "../emulator";
import { createClient, type SquareCloudClient } from "../provider/client";

const repoRoot = path.resolve(__dirname, "..", "..");
const demoDir = path.join(repoRoot, ".demo");
const projectDir = path.join(demoDir, "showcase");
const platformPort = Number(process.env.DEMO_PLATFORM_PORT ?? 18590);
const blobPort = Number(process.env.DEMO_BLOB_PORT ?? 18591);

/** What the summary reads of the stack outputs (`pulumi stack output --json`, secrets masked). */
interface ShowcaseOutputs {
  databases: Record<string, { id: string }>;
  workspaceId: string;
  assetUrls: Record<string, string>;
}

interface RosterLine {
  userId: string;
  codeKey: string;
}

async function main(): Promise<void> {
  const emulator = await startEmulator({
    platformPort,
    blobPort,
    dataDir: path.join(demoDir, "emulator"),
    admin: true,
  });
  const owner = emulator.accounts[0];
  try {
    // A copy of the example, so stack files stay out of examples/; it still resolves the
    // repo's node_modules, where pulumi-squarecloud links to this checkout.
    mkdirSync(path.join(demoDir, "state"), { recursive: true });
    cpSync(path.join(repoRoot, "examples", "showcase"), projectDir, { recursive: true });

    await pulumi(["stack", "select", "--create", "dev"]);
    await pulumi(["config", "set", "--secret", "squarecloud:apiKey"], { stdin: owner.apiKey });
    await pulumi(["config", "set", "squarecloud:platformUrl", emulator.platformUrl]);
    await pulumi(["config", "set", "squarecloud:blobUrl", emulator.blobUrl]);
    for (const { key, code } of await inviteCodes(emulator))
      await pulumi(["config", "set", "--secret", key], { stdin: code });
    await pulumi(["up", "--yes"]);

    console.log("\nStack outputs (secrets stay masked):");
    await pulumi(["stack", "output"]);
    const outputs = JSON.parse(await pulumi(["stack", "output", "--json"], { capture: true })) as ShowcaseOutputs;
    const client = createClient({ apiKey: owner.apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl });
    try {
      await printWhatExists(client, owner, outputs);
    } finally {
      await client.close();
    }
    printNextSteps();
  } finally {
    await emulator.close();
  }
}

const pulumiEnv = {
  ...process.env,
  PULUMI_BACKEND_URL: `file://${path.join(demoDir, "state")}`,
  PULUMI_CONFIG_PASSPHRASE: "demo",
  PULUMI_SKIP_UPDATE_CHECK: "true",
};

/**
 * Runs the CLI in the project. Asynchronous on purpose: the emulator answers from this process's
 * event loop. A secret goes in on stdin, never on a command line that other processes can read.
 * With `capture`, stdout is returned instead of shown.
 */
function pulumi(args: string[], options: { stdin?: string; capture?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", args, {
      cwd: projectDir,
      env: pulumiEnv,
      stdio: ["pipe", options.capture ? "pipe" : "inherit", "inherit"],
    });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin?.end(options.stdin ?? "");
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`pulumi ${args.slice(0, 2).join(" ")} failed (exit ${code ?? signal})`)),
    );
  });
}

/**
 * Each roster member's invite code, fetched as the invitee would: with their own key (only they
 * can read it). Fetched on every run: once a member joined, a new code changes nothing.
 */
async function inviteCodes(emulator: RunningEmulator): Promise<{ key: string; code: string }[]> {
  const roster = JSON.parse(readFileSync(path.join(projectDir, "roster.json"), "utf8")) as { members: RosterLine[] };
  const codes = [];
  for (const line of roster.members) {
    const invitee = emulator.accounts.find((account) => account.accountId === line.userId);
    if (!invitee) throw new Error(`roster.json: user ${line.userId} is not one of the emulator's accounts`);
    const client = createClient({
      apiKey: invitee.apiKey,
      platformUrl: emulator.platformUrl,
      blobUrl: emulator.blobUrl,
    });
    try {
      codes.push({ key: line.codeKey, code: await client.getInviteCode() });
    } finally {
      await client.close();
    }
  }
  return codes;
}

/** A few lines read back from the emulator: what the stack made, as the API reports it. */
async function printWhatExists(
  client: SquareCloudClient,
  owner: SeededAccount,
  outputs: ShowcaseOutputs,
): Promise<void> {
  console.log(`\nOn the emulator, account ${owner.email}:`);
  console.log("  databases made by this stack:");
  for (const { id } of Object.values(outputs.databases)) {
    const db = await client.getDatabase(id);
    console.log(`    ${db.name.padEnd(10)} ${db.type.padEnd(6)} ${String(db.ram).padStart(5)} MB   id ${db.id}`);
  }

  const workspace = await client.getWorkspace(outputs.workspaceId);
  console.log(
    `  workspace ${workspace.name} (id ${workspace.id}), sharing ${workspace.applications.map((app) => app.name).join(", ")}:`,
  );
  for (const member of workspace.members) console.log(`    ${member.name.padEnd(16)} ${member.group}`);

  console.log("  blob objects (open the URLs while the emulator runs):");
  const pathOfUrl = new Map(Object.entries(outputs.assetUrls).map(([relative, url]) => [url, relative]));
  for (const object of await client.listAllObjects("showcase")) {
    const url = [...pathOfUrl.keys()].find((candidate) => candidate.endsWith(object.id));
    if (url) console.log(`    ${pathOfUrl.get(url)!.padEnd(18)} ${String(object.size).padStart(6)} bytes   ${url}`);
  }

  for (const app of workspace.applications) {
    const snapshots = (await client.listSnapshots("applications")).filter((entry) => entry.name === app.id);
    const latest = snapshots
      .map((entry) => entry.modified)
      .sort()
      .at(-1);
    console.log(`  snapshots of ${app.name}: ${snapshots.length}, the latest taken ${latest ?? "never"}`);
  }
}

function printNextSteps(): void {
  console.log(`
The emulator stopped with this demo; its data stays in .demo/emulator. Bring it back on the same
data and ports (in another terminal, from the repository root):
  npm run emulator -- --data-dir .demo/emulator --platform-port ${platformPort} --blob-port ${blobPort}
then here:
  export PATH="${process.env.PULUMI_ENGINE_DIR ?? "<engine dir>"}:$PATH"
  export PULUMI_BACKEND_URL=file://${path.join(demoDir, "state")} PULUMI_CONFIG_PASSPHRASE=demo
  cd .demo/showcase
  pulumi stack output --show-secrets   # connection URLs, certificate, snapshot URL and key
  # change something (a database's memory in index.ts, a group in roster.json, a file in public/), then:
  pulumi up
  pulumi refresh                       # reads everything back from the API
  pulumi destroy                       # deletes what the stack made (a snapshot taken stays)

The same program against the live service: put your application's name and your team's user ids
in roster.json; then, after \`pulumi destroy\` (this stack's resources live on the emulator):
  pulumi config rm squarecloud:platformUrl && pulumi config rm squarecloud:blobUrl
  pulumi config set --secret squarecloud:apiKey   # your key, typed at the prompt
  pulumi config set --secret bobInviteCode        # each roster codeKey: the invitee's code, fetched with their key
  pulumi up`);
}

main().catch((err: Error) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
