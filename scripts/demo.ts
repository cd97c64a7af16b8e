// The main job: starts the emulator (persistent, fixed ports), runs a real `pulumi up` of
// examples/quickstart against it, then shows what exists, secrets masked, and what to try next.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { SEED_DATABASES, startEmulator } from "../emulator";
import { createClient } from "../provider/client";

const repoRoot = path.resolve(__dirname, "..", "..");
const demoDir = path.join(repoRoot, ".demo");
const projectDir = path.join(demoDir, "quickstart");
const platformPort = Number(process.env.DEMO_PLATFORM_PORT ?? 18590);
const blobPort = Number(process.env.DEMO_BLOB_PORT ?? 18591);

async function main(): Promise<void> {
  const emulator = await startEmulator({ platformPort, blobPort, dataDir: path.join(demoDir, "emulator") });
  const account = emulator.accounts[0];
  try {
    // A copy of the example, so stack files stay out of examples/; it still resolves the
    // repo's node_modules, where pulumi-squarecloud links to this checkout.
    mkdirSync(path.join(demoDir, "state"), { recursive: true });
    cpSync(path.join(repoRoot, "examples", "quickstart"), projectDir, { recursive: true });

    const env = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${path.join(demoDir, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "demo",
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    // Asynchronous on purpose: the emulator answers from this process's event loop. A secret
    // goes in on stdin, never on a command line that other processes can read.
    const pulumi = (args: string[], stdin?: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn("pulumi", args, { cwd: projectDir, env, stdio: ["pipe", "inherit", "inherit"] });
        child.stdin.end(stdin ?? "");
        child.on("error", reject);
        child.on("exit", (code, signal) =>
          code === 0 ? resolve() : reject(new Error(`pulumi ${args[0]} failed (exit ${code ?? signal})`)),
        );
      });

    await pulumi(["stack", "select", "--create", "dev"]);
    await pulumi(["config", "set", "--secret", "squarecloud:apiKey"], account.apiKey);
    await pulumi(["config", "set", "squarecloud:platformUrl", emulator.platformUrl]);
    await pulumi(["config", "set", "squarecloud:blobUrl", emulator.blobUrl]);
    await pulumi(["up", "--yes"]);

    console.log("\nStack outputs (secrets stay masked):");
    await pulumi(["stack", "output"]);

    const client = createClient({ apiKey: account.apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl });
    const databases = await client.listDatabases();
    await client.close();
    console.log(`\nDatabases of ${account.email} on the emulator:`);
    const seeded = new Set<string>(Object.values(SEED_DATABASES));
    for (const db of databases) {
      const origin = seeded.has(db.id) ? "seeded with the account" : "made by this stack";
      console.log(`  ${db.name.padEnd(12)} ${String(db.type).padEnd(6)} ${String(db.memory).padStart(5)} MB   id ${db.id}   ${origin}`);
    }

    console.log(`
Next, with the emulator running again on the same data and ports (in another terminal):
  npm run emulator -- --data-dir .demo/emulator --platform-port ${platformPort} --blob-port ${blobPort}
then here:
  export PATH="${process.env.PULUMI_ENGINE_DIR ?? "<engine dir>"}:$PATH"
  export PULUMI_BACKEND_URL=file://${path.join(demoDir, "state")} PULUMI_CONFIG_PASSPHRASE=demo
  cd .demo/quickstart
  pulumi stack output --show-secrets   # the one-time passwords, kept as secrets in state
  pulumi refresh                       # reads the databases back; passwords are kept
  pulumi destroy                       # deletes them`);
  } finally {
    await emulator.close();
  }
}

main().catch((err: Error) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
