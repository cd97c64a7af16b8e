import type * as blob from "../../../provider/client/payloads/blob";
import * as declared from "../../../provider/functions/blob";
import { runFunction } from "../../../provider/functions/declaration";
import { outputForm, promiseForm } from "./forms";
import type { DataSourceOptions } from "./options";
import { sessionFor } from "./session";

export interface BlobObjectSummary {
  /** <account id>/<prefix>/<name>_<random>-<hash>.<ext> */
  id: string;
  /** Bytes. */
  size: number;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; only on objects that expire. */
  expiresAt?: string;
}

export interface GetBlobObjectsArgs {
  /** Only objects whose name starts with it (3 to 32 of a-z A-Z 0-9 _). */
  prefix?: string;
}

export interface GetBlobObjectsResult {
  prefix?: string;
  /** Every page of the listing, in id order. The server caches listings for 30 s. */
  objects: BlobObjectSummary[];
}

export const getBlobObjects = promiseForm(async function getBlobObjects(
  args: GetBlobObjectsArgs = {},
  opts?: DataSourceOptions,
): Promise<GetBlobObjectsResult> {
  return runFunction(declared.getBlobObjects, args, () => sessionFor(opts));
});

export const getBlobObjectsOutput = outputForm(getBlobObjects);

/** Usage, the plan's included storage and the billing estimate; refreshed by the server once a minute. */
export type GetBlobStatsResult = blob.AccountStats;

export const getBlobStats = promiseForm(async function getBlobStats(
  opts?: DataSourceOptions,
): Promise<GetBlobStatsResult> {
  return runFunction(declared.getBlobStats, {}, () => sessionFor(opts));
});

export const getBlobStatsOutput = outputForm(getBlobStats);
