import { z } from "zod";
import type * as blob from "../client/payloads/blob";
import { LIST_CACHE_MS } from "../kinds/blob-object";
import { field } from "../kinds/declaration";
import { NAME_RULE } from "../kinds/names";
import { ARGUMENTS } from "./arguments";
import { declareFunction } from "./declaration";

const blobObjectSummary = field(
  z.object({
    id: field(z.string(), "<account id>/<prefix>/<name>_<random>-<hash>.<ext>"),
    size: field(z.number(), "The object's size in bytes."),
    createdAt: field(z.string(), "ISO 8601 time the object was uploaded."),
    expiresAt: field(z.string().optional(), "ISO 8601 time the object expires; only on objects that expire."),
  }),
  "A blob object as the listing shows it.",
  { schemaType: "BlobObjectSummary" },
);

export const getBlobObjects = declareFunction({
  name: "getBlobObjects",
  description: "The account's blob objects, every page of the listing.",
  args: { prefix: field(ARGUMENTS.prefix, `Only objects whose name starts with it (${NAME_RULE}).`) },
  result: {
    prefix: field(z.string().optional(), "The prefix given, if any."),
    objects: field(
      z.array(blobObjectSummary),
      `Every page of the listing, in id order. The server caches listings for ${LIST_CACHE_MS / 1000} s.`,
    ),
  },
  read: async ({ prefix }, session) =>
    session().read("getBlobObjects", { prefix }, async (client) => ({
      prefix,
      objects: (await client.listAllObjects(prefix)).map(objectView),
    })),
});

const count = (what: string) => field(z.number(), what);

export const getBlobStats = declareFunction({
  name: "getBlobStats",
  description:
    "Blob storage usage, the plan's included storage and the billing estimate; refreshed by the server once a minute.",
  args: {},
  result: {
    usage: field(
      z.object({ objects: count("Number of objects."), storage: count("Bytes stored.") }),
      "What the account stores.",
      { schemaType: "BlobUsage" },
    ),
    plan: field(z.object({ included: count("Bytes the plan includes.") }), "What the plan includes.", {
      schemaType: "BlobPlan",
    }),
    billing: field(
      z.object({
        extraStorage: count("Bytes beyond the plan's storage."),
        storagePrice: count("Price of the extra storage."),
        objectsPrice: count("Price of the objects."),
        totalEstimate: count("The estimate of the period's total."),
      }),
      "The billing estimate.",
      { schemaType: "BlobBilling" },
    ),
  },
  read: async (_args, session) => session().read("getBlobStats", {}, (client) => client.accountStats()),
});

function objectView(object: blob.BlobObject) {
  return { id: object.id, size: object.size, createdAt: object.created_at, expiresAt: object.expires_at };
}
