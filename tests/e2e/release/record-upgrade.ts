import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../../emulator";
import { STATE_FILE } from "../../../emulator/store/file-store";
import { pastRelease } from "../../../scripts/release/past-release";
import { RELEASES_DIR } from "../../../scripts/release/recorded";
import { emulatorConfig } from "../harness/emulator-env";
import { repoRoot } from "../harness/engine";
import { lockOwnGoModule } from "../harness/go-module-lock";
import { outsideDir } from "../harness/outside-project";
import { startPluginServer } from "../harness/plugin-server";
import { type ProgramStack, userProjectStack } from "../harness/stack";
import { type Deployment, recordsOf, UPGRADE_STACK, UPGRADES_DIR, type UpgradeFixture } from "./upgrade-fixtures";
import { prepareLane } from "./upgrade-lanes";
import { LANGUAGES, type Language } from "./upgrade-programs";

/**
 * `npm run record:upgrade -- <version> [<language>...]`: the stacks a user of each language has
 * after `pulumi up` with the release <version> (recorded in tests/fixtures/releases/<version>/,
 * built from its commit by scripts/release/past-release.ts), for the upgrade tests
 * (upgrade.test.ts) to run the current build on. Each program of upgrade-programs.ts runs on that
 * release's SDK, the engine downloading that release's plugin, against one emulator; then
 * tests/fixtures/upgrades/<version>/ is written (see upgrade-fixtures.ts). Languages the release
 * has no SDK for are left out, unless named.
 */

/** Whether the release's files hold the SDK (or, for YAML, the plugin) a language's program needs. */
function releaseHas(dir: string, language: Language): boolean {
  const files = readdirSync(dir);
  const has = {
    typescript: files.some((file) => file.endsWith(".tgz")),
    yaml: files.some((file) => file.startsWith("pulumi-resource-squarecloud-")),
    python: files.some((file) => file.endsWith(".whl")),
    go: files.includes("goproxy"),
    java: files.includes("maven"),
  };
  return has[language];
}

const say = (message: string) => console.error(`[record-upgrade] ${message}`);

async function main(): Promise<void> {
  const [version, ...named] = process.argv.slice(2);
  const releaseFile = path.join(repoRoot, RELEASES_DIR, version ?? "", "release.json");
  if (version === undefined || !existsSync(releaseFile))
    throw new Error(`npm run record:upgrade -- <version> [<language>...]: no release recorded as ${releaseFile}`);
  const unknown = named.filter((language) => !(LANGUAGES as readonly string[]).includes(language));
  if (unknown.length > 0) throw new Error(`unknown languages ${unknown.join(", ")}: ${LANGUAGES.join(", ")}`);
  const { commit } = JSON.parse(readFileSync(releaseFile, "utf8")) as { commit: string };
  const release = await pastRelease(commit);
  const languages = named.length > 0 ? (named as Language[]) : LANGUAGES.filter((l) => releaseHas(release.dir, l));
  say(`recording ${languages.join(", ")} with ${version} (${release.dir})`);

  const scratch = outsideDir("upgrade-record");
  const dataDir = path.join(scratch, "emulator");
  const emulator = await startEmulator({ dataDir });
  const plugins = await startPluginServer(release.dir);
  const stacks = new Map<Language, ProgramStack>();
  const releaseGoModule = languages.includes("go") ? await lockOwnGoModule() : undefined;
  try {
    for (const language of languages) {
      const workDir = path.join(scratch, language);
      mkdirSync(workDir);
      const env = await prepareLane(language, workDir, { version, release: release.dir });
      const program = await userProjectStack(workDir, {
        config: emulatorConfig(emulator),
        env: {
          PULUMI_HOME: path.join(scratch, "pulumi-home"),
          PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: plugins.overridesFor("record"),
          ...env,
        },
      });
      stacks.set(language, program);
      say(`${language}: pulumi up`);
      await program.stack.up();
    }
    const data = JSON.parse(readFileSync(path.join(dataDir, STATE_FILE), "utf8"));
    const fixture: UpgradeFixture = {
      version,
      commit: release.commit,
      platformUrl: emulator.platformUrl,
      blobUrl: emulator.blobUrl,
    };
    const dir = path.join(UPGRADES_DIR, version);
    for (const [language, program] of stacks) {
      // As the backend stores it, secrets as ciphertext (the Automation API's export decrypts them).
      const deployment: Deployment = { version: 3, deployment: JSON.parse(program.checkpoint()).checkpoint.latest };
      const texts = {
        "fixture.json": `${JSON.stringify(fixture, null, 2)}\n`,
        "deployment.json": `${JSON.stringify(deployment, null, 2)}\n`,
        "emulator.json": `${JSON.stringify(recordsOf(data, deployment), null, 2)}\n`,
        // Only the passphrase's salt: the tests set the rest of the config for their emulator.
        [`Pulumi.${UPGRADE_STACK}.yaml`]: `${/^encryptionsalt: .*$/m.exec(readFileSync(path.join(program.workDir, `Pulumi.${UPGRADE_STACK}.yaml`), "utf8"))?.[0]}\n`,
      };
      const outputs = await program.stack.outputs();
      for (const secret of ["cachePassword", "cacheUrl"]) {
        if (!outputs[secret]?.secret) throw new Error(`${language}: the output ${secret} is not a secret`);
        const plaintext = String(outputs[secret].value);
        for (const [file, text] of Object.entries(texts))
          if (text.includes(plaintext)) throw new Error(`${language}: ${file} holds ${secret} in plaintext`);
      }
      rmSync(path.join(dir, language), { recursive: true, force: true });
      mkdirSync(path.join(dir, language), { recursive: true });
      for (const [file, text] of Object.entries(texts)) writeFileSync(path.join(dir, language, file), text);
      say(`${language}: written to ${path.relative(repoRoot, path.join(dir, language))}`);
    }
  } finally {
    for (const program of stacks.values()) await program.dispose().catch(() => undefined);
    releaseGoModule?.();
    await plugins.close();
    await emulator.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`record-upgrade: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
});
