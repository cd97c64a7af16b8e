import * as pulumi from "@pulumi/pulumi";
import { APP_SNAPSHOT_SECRET_OUTPUTS } from "../provider/schemas/app-snapshot";
import type { AppSnapshotInputs } from "../provider/schemas/app-snapshot";
import { InputsOf, withSecretOutputs } from "./inputs";
import { ProviderStub } from "./stub";

const provider = new ProviderStub("appSnapshot");

export type AppSnapshotArgs = InputsOf<AppSnapshotInputs>;

/**
 * A snapshot (backup) of an application's files, taken once by the `pulumi up` that creates the
 * resource. Later runs take no new one unless `trigger` (any value: a date, a release tag, a
 * counter) or `appId` changes; then a new snapshot replaces this one in state. Removing the
 * resource takes nothing back: it leaves the state only.
 *
 * `url` (a time-limited pre-signed download URL of the ZIP archive) and `key` (its credentials)
 * are secrets. The API allows one snapshot per 5 seconds (the provider paces them) and
 * (plan RAM / 256) * 2 per 24 hours per account.
 */
export class AppSnapshot extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly trigger: pulumi.Output<unknown>;
  /** Absent when the snapshot was recovered from the listing after a lost response. */
  declare readonly url: pulumi.Output<string | undefined>;
  declare readonly key: pulumi.Output<string>;
  /** ISO 8601 UTC. */
  declare readonly takenAt: pulumi.Output<string>;

  constructor(name: string, args: AppSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs the provider computes are listed unset, so the engine exposes them on the resource.
    // Optional inputs too: an output exists only for keys present here.
    const outputs = { url: undefined, key: undefined, takenAt: undefined, trigger: undefined };
    super(provider, name, { ...outputs, ...args }, withSecretOutputs(opts, APP_SNAPSHOT_SECRET_OUTPUTS), "squarecloud", "AppSnapshot");
  }
}
