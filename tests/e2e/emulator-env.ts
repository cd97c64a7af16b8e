import { ConfigMap } from "@pulumi/pulumi/automation";
import { RunningEmulator, SeededAccount } from "../../emulator";
import { createClient, SquareCloudClient } from "../../provider/client";

/** Stack config that points the provider at the emulator, with the key as a secret. */
export function emulatorConfig(emulator: RunningEmulator, account: SeededAccount = emulator.accounts[0]): ConfigMap {
  return {
    "squarecloud:apiKey": { value: account.apiKey, secret: true },
    "squarecloud:platformUrl": { value: emulator.platformUrl },
    "squarecloud:blobUrl": { value: emulator.blobUrl },
  };
}

/** A client of the account, for the out-of-band changes a test makes behind Pulumi's back. */
export function accountClient(emulator: RunningEmulator, account: SeededAccount = emulator.accounts[0]): SquareCloudClient {
  return createClient({ apiKey: account.apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl });
}

/** The requests that change state, from the emulator's per-route counters. */
export async function mutationCount(emulator: RunningEmulator): Promise<number> {
  const counters = await emulator.admin.counters();
  return Object.entries(counters)
    .filter(([route]) => !route.startsWith("GET "))
    .reduce((sum, [, count]) => sum + count, 0);
}
