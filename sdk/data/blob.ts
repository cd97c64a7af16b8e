import type * as blob from "../../provider/client/payloads/blob";
import { ARGUMENTS, checkArguments } from "./arguments";
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
  checkArguments("getBlobObjects", { prefix: ARGUMENTS.prefix }, args);
  const { prefix } = args;
  return sessionFor(opts).read("getBlobObjects", { prefix }, async (client) => ({
    prefix,
    objects: (await client.listAllObjects(prefix)).map(objectView),
  }));
});

export const getBlobObjectsOutput = outputForm(getBlobObjects);

/** Usage, the plan's included storage and the billing estimate; refreshed by the server once a minute. */
export type GetBlobStatsResult = blob.AccountStats;

export const getBlobStats = promiseForm(async function getBlobStats(
  opts?: DataSourceOptions,
): Promise<GetBlobStatsResult> {
  return sessionFor(opts).read("getBlobStats", {}, (client) => client.accountStats());
});

export const getBlobStatsOutput = outputForm(getBlobStats);

function objectView(object: blob.BlobObject): BlobObjectSummary {
  return { id: object.id, size: object.size, createdAt: object.created_at, expiresAt: object.expires_at };
}
