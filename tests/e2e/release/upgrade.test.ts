import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { buildSeedData } from "../../../emulator/seed";
import { STATE_FILE } from "../../../emulator/store/file-store";
import { packageVersion } from "../../../provider/client/version";
import { archiveName, hostTarget } from "../../../scripts/plugin-archive";
import { archiveDir } from "../../plugin-archives";
import { emulatorConfig } from "../harness/emulator-env";
import { repoRoot } from "../harness/engine";
import { type PluginServer, startPluginServer } from "../harness/plugin-server";
import { type ProgramStack, SECRET_SIG, userProjectStack } from "../harness/stack";
import { type Deployment, type RecordedLane, recordedLane, UPGRADE_STACK } from "./upgrade-fixtures";
import { prepareLane } from "./upgrade-lanes";
import { LANGUAGES } from "./upgrade-programs";

// Upgrades without surprises, the way pulumi/providertest checks them: the stack a user of each
// language made with the last release (recorded under tests/fixtures/upgrades/ by `npm run
// record:upgrade`, with that release's SDK and plugin) is imported into a fresh backend, the
// emulator holding what it made, and its program runs with the current build's SDK: `preview`
// finds nothing to change or replace, then `up` and `refresh` change nothing, and the database's
// password is the same secret. The engine downloads the current plugin, once, into a fresh Pulumi
// home, from a local server standing in for the GitHub release; nothing is installed beforehand.
// The TypeScript stack holds the dynamic providers the old SDK serialized into state; the current
// SDK registers its provider as a module.

const lanes = LANGUAGES.map(recordedLane);
let emulator: RunningEmulator;
let plugins: PluginServer;
let scratch: string;
const programs: ProgramStack[] = [];

jest.setTimeout(600_000);

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "squarecloud-upgrade-"));
  const dataDir = path.join(scratch, "emulator");
  mkdirSync(dataDir);
  // The seeded accounts, and every recorded stack's objects beside them.
  const data = buildSeedData(Date.now());
  for (const { records } of lanes) {
    data.databases.push(...records.databases);
    data.workspaces.push(...records.workspaces);
    data.blobObjects.push(...records.blobObjects);
  }
  writeFileSync(path.join(dataDir, STATE_FILE), JSON.stringify(data));
  emulator = await startEmulator({ dataDir, admin: true });
  plugins = await startPluginServer(archiveDir);
});

afterAll(async () => {
  for (const program of programs) await program.dispose().catch(() => undefined);
  await plugins?.close();
  await emulator?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The Pulumi home of every lane: fresh, so the engine has to download the plugin. */
const home = () => path.join(scratch, "pulumi-home");

/**
 * The recorded state with the emulator URLs of the day it was recorded replaced by this emulator's:
 * the provider's configuration recorded in state (which `refresh` uses) and the objects' public URLs
 * name them; on the live service both stay put.
 */
function onThisEmulator({ deployment, fixture }: RecordedLane): Deployment {
  let text = JSON.stringify(deployment);
  for (const [recorded, url] of [
    [fixture.platformUrl, emulator.platformUrl],
    [fixture.blobUrl, emulator.blobUrl],
  ]) {
    // A port is followed by no digit: the URL is not the start of another one.
    text = text.replace(new RegExp(`${recorded.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9])`, "g"), url);
  }
  return JSON.parse(text);
}

/** Requests that could have changed something on the emulator. */
async function mutations() {
  return (await emulator.admin.requests()).filter((request) => request.method !== "GET");
}

describe.each(lanes.map((lane) => [lane.language, lane.fixture.version, lane] as const))(
  "%s, its stack made by %s",
  (language, _version, lane) => {
    test("previews with no change and no replacement, then up and refresh change nothing; the password stays a secret", async () => {
      // Inside the repository: the TypeScript program resolves the package by its name to this build.
      mkdirSync(path.join(repoRoot, ".pulumi-e2e"), { recursive: true });
      const workDir = mkdtempSync(path.join(repoRoot, ".pulumi-e2e", `upgrade-${language}-`));
      writeFileSync(path.join(workDir, `Pulumi.${UPGRADE_STACK}.yaml`), lane.stackConfig);
      const env = await prepareLane(language, workDir, { version: packageVersion() });
      const program = await userProjectStack(workDir, {
        env: { PULUMI_HOME: home(), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: plugins.overridesFor(language), ...env },
      });
      programs.push(program);
      await program.stack.setAllConfig(emulatorConfig(emulator));
      await program.stack.importStack(onThisEmulator(lane));
      // The stack and its three resources: the summaries leave the providers out.
      const resources = 4;
      expect(
        lane.deployment.deployment.resources?.filter(({ type }) => !type.startsWith("pulumi:providers:")),
      ).toHaveLength(resources);
      const recorded = await program.stack.outputs();
      expect(recorded.cachePassword).toEqual({ value: expect.stringMatching(/./), secret: true });
      await emulator.admin.clearRequests();

      const preview = await program.stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: resources });
      const up = await program.stack.up();
      expect(up.summary.resourceChanges).toEqual({ same: resources });
      const refresh = await program.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: resources });
      expect(await mutations()).toEqual([]);

      const outputs = await program.stack.outputs();
      expect(outputs.cachePassword).toEqual(recorded.cachePassword);
      expect(outputs.cacheUrl).toEqual(recorded.cacheUrl);
      const cache = (await program.resources()).find((resource) => resource.urn.endsWith("::cache"));
      expect(cache?.outputs?.password).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
    });
  },
);

test("the engine downloaded the current plugin once for all the languages that run it, into the fresh Pulumi home", () => {
  const asset = archiveName(packageVersion(), hostTarget());
  const served = plugins.log.filter((line) => line.endsWith(" 200"));
  expect(served).toEqual([expect.stringMatching(new RegExp(`^GET /\\w+/${asset.replace(/\./g, "\\.")} 200$`))]);
  expect(existsSync(path.join(home(), "plugins", `resource-squarecloud-v${packageVersion()}`))).toBe(true);
  // The recorded states name their release's plugin too, which this server does not have (a user
  // upgrading has it already): the engine asks for it and goes on without it.
  const recorded = lanes.map(({ fixture }) => archiveName(fixture.version, hostTarget()));
  const others = plugins.log.filter((entry) => !served.includes(entry));
  expect(others.filter((line) => !recorded.some((archive) => line.endsWith(`/${archive} 404`)))).toEqual([]);
});
