import { accountEndpoints } from "./endpoints/account";
import { blobEndpoints } from "./endpoints/blob";
import { databaseEndpoints } from "./endpoints/databases";
import { workspaceEndpoints } from "./endpoints/workspaces";
import type { HttpClient } from "./http";
import type { AccountLimits } from "./pacing";

/**
 * The single client resources and data sources use: one typed method per endpoint of the platform
 * and blob APIs, gathered from one module per area (endpoints/). Every call names its operation
 * and, where known, the object it is about, so an error reads like `delete database "db_123"
 * failed: ...`. POST calls are the non-idempotent ones: on an unknown outcome they throw an
 * ApiError with mayHaveCommitted set and the caller reconciles by reading, unless the call settles
 * it itself (a `settle` read: done, or sent again with the client's backoff).
 */
export interface SquareCloudClient
  extends ReturnType<typeof accountEndpoints>,
    ReturnType<typeof databaseEndpoints>,
    ReturnType<typeof workspaceEndpoints>,
    ReturnType<typeof blobEndpoints> {
  /** Frees the connections to both APIs. */
  close(): Promise<void>;
}

export interface SquareCloudClientParts {
  platform: HttpClient;
  blob: HttpClient;
  limits: AccountLimits;
  /** Per-attempt timeout of uploads, which may carry up to 100 MB. */
  uploadTimeoutMs: number;
}

/** Area modules are plain functions over the transports they use, so they combine by spreading. */
export function assembleClient(parts: SquareCloudClientParts): SquareCloudClient {
  return {
    ...accountEndpoints(parts.platform, parts.limits),
    ...databaseEndpoints(parts.platform, parts.limits),
    ...workspaceEndpoints(parts.platform),
    ...blobEndpoints(parts.blob, parts.limits, parts.uploadTimeoutMs),
    async close() {
      await Promise.all([parts.platform.close(), parts.blob.close()]);
    },
  };
}
