import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { compareVersions } from "../../../scripts/release/schema-compare";
import type { EmulatorData } from "../../../emulator/state";
import { repoRoot } from "../harness/engine";
import type { StateResource } from "../harness/stack";
import type { Language } from "./upgrade-programs";

/**
 * The upgrade tests' recordings, tests/fixtures/upgrades/<version>/<language>/: fixture.json (the
 * release, its commit, the emulator's URLs when it was recorded), the stack the release made
 * (deployment.json, the backend's checkpoint, secrets as ciphertext), its config file (only the
 * passphrase's salt: Pulumi.e2e.yaml) and the emulator's records of what that stack holds
 * (emulator.json). Written by record-upgrade.ts, read by upgrade.test.ts.
 */

export const UPGRADES_DIR = path.join(repoRoot, "tests", "fixtures", "upgrades");

/** The stack every recording is made in and imported into; its passphrase is the e2e stacks' own (tests/e2e/harness/stack.ts). */
export const UPGRADE_STACK = "e2e";

export interface UpgradeFixture {
  version: string;
  commit: string;
  platformUrl: string;
  blobUrl: string;
}

export interface Deployment {
  version: number;
  deployment: { resources?: StateResource[] };
}

/** What the emulator must hold for a recorded stack's resources to exist. */
export type EmulatorRecords = Pick<EmulatorData, "databases" | "workspaces" | "blobObjects">;

export interface RecordedLane {
  language: Language;
  fixture: UpgradeFixture;
  deployment: Deployment;
  /** The stack's config file as recorded: the passphrase's salt. */
  stackConfig: string;
  records: EmulatorRecords;
}

/** The newest recorded version holding `language`'s stack: the last release a user of it upgrades from. */
export function recordedLane(language: Language): RecordedLane {
  const versions = existsSync(UPGRADES_DIR) ? readdirSync(UPGRADES_DIR).sort(compareVersions) : [];
  const version = versions.reverse().find((v) => existsSync(path.join(UPGRADES_DIR, v, language)));
  if (version === undefined) throw new Error(`no upgrade recording of ${language} under ${UPGRADES_DIR}`);
  const read = (file: string) => readFileSync(path.join(UPGRADES_DIR, version, file), "utf8");
  return {
    language,
    fixture: JSON.parse(read(path.join(language, "fixture.json"))),
    deployment: JSON.parse(read(path.join(language, "deployment.json"))),
    stackConfig: read(path.join(language, `Pulumi.${UPGRADE_STACK}.yaml`)),
    records: JSON.parse(read(path.join(language, "emulator.json"))),
  };
}

/** The emulator's records of the resources `deployment` names, by their ids. */
export function recordsOf(data: EmulatorData, deployment: Deployment): EmulatorRecords {
  const ids = new Set((deployment.deployment.resources ?? []).flatMap((resource) => resource.id ?? []));
  return {
    databases: data.databases.filter((record) => ids.has(record.id)),
    workspaces: data.workspaces.filter((record) => ids.has(record.id)),
    blobObjects: data.blobObjects.filter((record) => ids.has(record.id)),
  };
}
