import { invalidResponse } from "../errors";
import type { HttpClient } from "../http";
import type { AccountLimits } from "../pacing";
import type { Settle, Settled } from "../retry";
import * as blob from "../payloads/blob";
import { read } from "./reads";

/** The blob storage API (/v1): objects and the account's storage figures. */

export interface UploadObjectInput {
  /** ^[a-zA-Z0-9_]{3,32}$ */
  name: string;
  /** ^[a-zA-Z0-9_]{3,32}$ */
  prefix?: string;
  /** Days: EXPIRY_RULE, kinds/blob-object.ts. */
  expireDays?: number;
  securityHash?: boolean;
  autoDownload?: boolean;
  /** 1 KiB to 100 MB. */
  content: Buffer;
  mimeType: string;
  /** Receives the server's clock at the answer (its Date header), the object's creation time. */
  serverTime?: (epochMs: number) => void;
}

/** `uploadTimeoutMs`: per upload attempt, which may carry up to 100 MB. */
export function blobEndpoints(api: HttpClient, limits: AccountLimits, uploadTimeoutMs: number) {
  /** One page (up to 1000 objects). The server caches listings (LIST_CACHE_MS, kinds/blob-object.ts). */
  function listObjects(
    options: { prefix?: string; continuationToken?: string; serverTime?: (epochMs: number) => void } = {},
  ): Promise<blob.ObjectPage> {
    return api.request({
      operation: "list objects",
      resource: options.prefix,
      method: "GET",
      path: "/v1/objects",
      query: { prefix: options.prefix, continuationToken: options.continuationToken },
      schema: blob.ObjectPage,
      serverTime: options.serverTime,
    });
  }

  return {
    listObjects,

    /** Every page, in order; `serverTime` receives the server's clock at the first page. */
    async listAllObjects(prefix?: string, serverTime?: (epochMs: number) => void): Promise<blob.BlobObject[]> {
      const objects: blob.BlobObject[] = [];
      const seenTokens = new Set<string>();
      let continuationToken: string | undefined;
      do {
        const page = await listObjects({
          prefix,
          continuationToken,
          serverTime: continuationToken === undefined ? serverTime : undefined,
        });
        objects.push(...page.objects);
        continuationToken = page.continuationToken;
        // A token handed out twice would loop forever.
        if (continuationToken !== undefined && seenTokens.has(continuationToken)) {
          const context = { operation: "list objects", resource: prefix, method: "GET", path: "/v1/objects" } as const;
          throw invalidResponse(context, 200, "the server repeated a continuation token");
        }
        if (continuationToken !== undefined) seenTokens.add(continuationToken);
      } while (continuationToken !== undefined);
      return objects;
    },

    /** A lost answer is sent again only as `settle` allows: a second one would be stored under a new random id. */
    uploadObject<F = never>(input: UploadObjectInput, settle?: Settle<F>): Promise<Settled<blob.UploadedObject, F>> {
      return api.request(
        {
          operation: "upload object",
          resource: input.prefix === undefined ? input.name : `${input.prefix}/${input.name}`,
          method: "POST",
          path: "/v1/objects",
          query: {
            name: input.name,
            prefix: input.prefix,
            expire: input.expireDays,
            security_hash: input.securityHash || undefined,
            auto_download: input.autoDownload || undefined,
          },
          file: { content: input.content, mimeType: input.mimeType, fileName: input.name },
          schema: blob.UploadedObject,
          gate: limits.upload(),
          timeoutMs: uploadTimeoutMs,
          serverTime: input.serverTime,
        },
        settle,
      );
    },

    /** Permanent. A missing object gives 404 OBJECT_NOT_FOUND. */
    deleteObject(objectId: string): Promise<void> {
      return api.request({
        operation: "delete object",
        resource: objectId,
        method: "DELETE",
        path: "/v1/objects",
        json: { object: objectId },
      });
    },

    /** Refreshed by the server once a minute. */
    accountStats: read(api, "read blob account stats", "/v1/account/stats", blob.AccountStats),
  };
}
