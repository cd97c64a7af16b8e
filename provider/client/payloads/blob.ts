import { z } from "zod";
import { alsoNamed, optionalText } from "./envelope";

/** Payloads of the blob storage API (/v1): objects, listings, uploads and the account's figures. */

export const BlobObject = alsoNamed(
  z.object({
    /** <account_id>/<prefix>/<name>_<random>-<hash>[-ex<days>].<ext> */
    id: z.string(),
    size: z.number(),
    created_at: z.string(),
    /** Only on objects that expire. */
    expires_at: optionalText,
  }),
  // Timestamps are read under either spelling, as in the platform API's payloads.
  { created_at: "createdAt", expires_at: "expiresAt" },
);
export type BlobObject = z.infer<typeof BlobObject>;

/** One page of up to 1000 objects; `continuationToken` is absent on the last page. */
export const ObjectPage = z.object({
  objects: z.array(BlobObject).default([]),
  continuationToken: optionalText,
});
export type ObjectPage = z.infer<typeof ObjectPage>;

export const UploadedObject = z.object({
  id: z.string(),
  name: z.string(),
  prefix: optionalText,
  size: z.number(),
  /** Public CDN URL of the object. */
  url: z.string(),
});
export type UploadedObject = z.infer<typeof UploadedObject>;

export const AccountStats = z.object({
  usage: z.object({ objects: z.number(), storage: z.number() }),
  plan: z.object({ included: z.number() }),
  billing: z.object({
    extraStorage: z.number(),
    storagePrice: z.number(),
    objectsPrice: z.number(),
    totalEstimate: z.number(),
  }),
});
export type AccountStats = z.infer<typeof AccountStats>;
