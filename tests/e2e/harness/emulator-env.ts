import type { ConfigMap } from "@pulumi/pulumi/automation";
import {
  type RunningEmulator,
  SEED_APPS,
  SEED_DATABASE_SNAPSHOT_VERSIONS,
  SEED_DATABASES,
  type SeededAccount,
  startEmulator,
} from "../../../emulator";
import { createClient, type SquareCloudClient } from "../../../provider/client";
import type { OperationsService, TeamService } from "./service-suite";
import type { ProgramStack } from "./stack";

/** The service of a shared lifecycle as the in-process emulator, its admin surface beside it for the emulator's own tests. */
export interface EmulatorSuite extends TeamService, OperationsService {
  emulator: RunningEmulator;
}

/** Past the server's 30 s list cache: listings after this are computed afresh. */
const PAST_LIST_CACHE_MS = 31_000;

/**
 * How long one e2e test may run. A test drives the real engine through several operations, each
 * seconds long and much longer on a loaded two-core machine; the limit only stops a hung test and
 * says nothing about speed (timings belong in bench/).
 */
const E2E_TEST_TIMEOUT_MS = 600_000;

/**
 * One in-process emulator per test file, and the clean-up of the stacks the file opened. Sets the
 * file's test timeout for engine-driven tests.
 */
export function emulatorSuite(): EmulatorSuite {
  jest.setTimeout(E2E_TEST_TIMEOUT_MS);
  const stacks: ProgramStack[] = [];
  const suite = {
    keep: (stack: ProgramStack) => {
      stacks.push(stack);
      return stack;
    },
    ownerId: () => suite.emulator.accounts[0].accountId,
    operationTargets: () => ({
      appId: SEED_APPS.aliceWebsite,
      restore: {
        databaseId: SEED_DATABASES.aliceMain,
        snapshotId: SEED_DATABASES.aliceMain,
        versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceMain[0],
      },
      move: { path: "index.js", to: "src/index.js" },
    }),
    teamApps: () => [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceBot] as const,
    // Bob, the seed's second account.
    invitee: () => {
      const bob = suite.emulator.accounts[1];
      return {
        id: bob.accountId,
        name: bob.name,
        inviteCode: async () => (await inviteCodeConfig(suite.emulator, { code: bob })).code.value,
      };
    },
    config: () => emulatorConfig(suite.emulator),
    // The emulator's clock moves past the cache at once: no listing to wait on.
    pastListCache: async (_prefix: string, _settled: (ids: string[]) => boolean) => {
      await suite.emulator.admin.advanceClock(PAST_LIST_CACHE_MS);
    },
  } as EmulatorSuite;
  beforeAll(async () => {
    suite.emulator = await startEmulator({ admin: true });
    suite.api = accountClient(suite.emulator);
    suite.log = suite.emulator.admin;
  });
  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.dispose().catch(() => undefined)));
    await suite.api?.close();
    await suite.emulator?.close();
  });
  return suite;
}

/** Stack config that points the provider at the emulator, with the key as a secret. */
export function emulatorConfig(emulator: RunningEmulator, account: SeededAccount = emulator.accounts[0]): ConfigMap {
  return {
    "squarecloud:apiKey": { value: account.apiKey, secret: true },
    "squarecloud:platformUrl": { value: emulator.platformUrl },
    "squarecloud:blobUrl": { value: emulator.blobUrl },
  };
}

/** A client of the account, for the out-of-band changes a test makes behind Pulumi's back. */
export function accountClient(
  emulator: RunningEmulator,
  account: SeededAccount = emulator.accounts[0],
): SquareCloudClient {
  return createClient({ apiKey: account.apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl });
}

/**
 * Secret stack config holding each invitee's invite code, fetched as a person would: with their
 * own key (only the invitee can read their code). Keys are config keys, values the invitees.
 */
export async function inviteCodeConfig(
  emulator: RunningEmulator,
  invitees: Record<string, SeededAccount>,
): Promise<ConfigMap> {
  const config: ConfigMap = {};
  for (const [key, account] of Object.entries(invitees)) {
    const client = accountClient(emulator, account);
    try {
      config[key] = { value: await client.getInviteCode(), secret: true };
    } finally {
      await client.close();
    }
  }
  return config;
}

/**
 * The requests besides the read-only check of the key a preview makes (GET /v2/users/me, once
 * per provider process and once per program run for data sources; see
 * docs/configuration.md): what a test means by "no request" at preview.
 */
export function beyondKeyCheck<T extends { route: string }>(requests: T[]): T[] {
  return requests.filter((request) => request.route !== "GET /v2/users/me");
}
