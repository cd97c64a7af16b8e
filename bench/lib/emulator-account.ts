import { randomBytes } from "node:crypto";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { SEED_ACCOUNTS, type RunningEmulator } from "../../emulator";
import { createClient, type SquareCloudClient } from "../../provider/client";
import { inviteCodeConfig } from "../../tests/e2e/harness/emulator-env";
import { INVITEES } from "./mix";

type Invitee = (typeof INVITEES)[number];

/**
 * The bench account: dave, who owns nothing in the seed, given a plan that holds hundreds of
 * resources. The other seeded accounts are the invitees.
 */
export const BENCH_ACCOUNT = SEED_ACCOUNTS.dave;

/** A clean emulator (fresh seed, no faults, empty log) with the bench account's big plan. */
export async function freshAccount(emulator: RunningEmulator): Promise<void> {
  await emulator.admin.reset();
  await emulator.admin.setPlan(BENCH_ACCOUNT.accountId, "enterprise-32");
}

export function benchClient(emulator: RunningEmulator, apiKey: string = BENCH_ACCOUNT.apiKey): SquareCloudClient {
  return createClient({ apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl });
}

/** Stack config pointing the provider at the emulator with the bench account's key. */
export function providerConfig(emulator: RunningEmulator): ConfigMap {
  return {
    "squarecloud:apiKey": { value: BENCH_ACCOUNT.apiKey, secret: true },
    "squarecloud:platformUrl": { value: emulator.platformUrl },
    "squarecloud:blobUrl": { value: emulator.blobUrl },
  };
}

/** Each invitee's current code, fetched with their own key as a person would (or made up, for the floor). */
export async function inviteCodes(emulator: RunningEmulator, real: boolean): Promise<Record<Invitee, string>> {
  if (!real)
    return Object.fromEntries(INVITEES.map((invitee) => [invitee, randomBytes(16).toString("hex")])) as Record<
      Invitee,
      string
    >;
  const config = await inviteCodeConfig(
    emulator,
    Object.fromEntries(INVITEES.map((invitee) => [invitee, SEED_ACCOUNTS[invitee]])),
  );
  return Object.fromEntries(INVITEES.map((invitee) => [invitee, config[invitee]!.value])) as Record<Invitee, string>;
}
