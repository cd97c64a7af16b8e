import { accountEndpoints } from "./endpoints/account";
import { blobEndpoints } from "./endpoints/blob";
import { databaseEndpoints } from "./endpoints/databases";
import { workspaceEndpoints } from "./endpoints/workspaces";
import type { HttpClient } from "./http";
import type { AccountLimits } from "./pacing";

/**
 * One typed method per endpoint; each names its operation and object so errors say which. A POST
 * with an unknown outcome throws mayHaveCommitted unless the call settles it by reading.
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
