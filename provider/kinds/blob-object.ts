import { z } from "zod";
import { isUnknown } from "../field-check";
import { ASSET_SIG, SIG_KEY } from "../signatures";
import { type ChangeRule, declareKind, field, type InputsOf, type OutputsOf } from "./declaration";
import { NAME_PATTERN, NAME_RULE, shortName } from "./names";

/** Names and prefixes of objects follow the API's one name rule; their sizes and expiry (docs/service-limits.md). */
export const OBJECT_NAME_PATTERN = NAME_PATTERN;
export const MIN_OBJECT_BYTES = 1024;
export const MAX_OBJECT_BYTES = 100 * 1000 * 1000;
export const MAX_EXPIRE_DAYS = 365;
/** The server caches object listings this long: an object uploaded just now is listed after it. */
export const LIST_CACHE_MS = 30_000;

/** The MIME types the blob API accepts, each with the extensions it is inferred from (none: must be given). */
export const ALLOWED_MIME_TYPES: Readonly<Record<string, readonly string[]>> = {
  "video/mp4": ["mp4"],
  "video/mpeg": ["mpeg", "mpg"],
  "video/webm": ["webm"],
  "video/x-flv": ["flv"],
  "video/x-m4v": ["m4v"],
  "image/jpeg": ["jpg", "jpeg"],
  "image/png": ["png"],
  "image/apng": ["apng"],
  "image/tiff": ["tif", "tiff"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
  "image/bmp": ["bmp"],
  "image/svg+xml": ["svg"],
  "image/x-icon": ["ico"],
  "image/ico": [],
  "image/cur": ["cur"],
  "image/heic": ["heic"],
  "image/heif": ["heif"],
  "audio/wav": ["wav"],
  "audio/ogg": ["ogg", "oga"],
  "audio/opus": ["opus"],
  "audio/mp4": [],
  "audio/mpeg": ["mp3"],
  "audio/aac": ["aac"],
  "text/plain": ["txt", "text", "md"],
  "text/html": ["html", "htm"],
  "text/css": ["css"],
  "text/csv": ["csv"],
  "text/x-sql": [],
  "application/xml": ["xml"],
  "application/sql": ["sql"],
  "application/x-sql": [],
  "application/x-sqlite3": ["sqlite", "sqlite3", "db"],
  "application/x-pkcs12": ["p12", "pfx"],
  "application/pdf": ["pdf"],
  "application/json": ["json", "map"],
  "application/javascript": ["js", "mjs", "cjs"],
};

/** A StringAsset has no extension: its text is plain text unless mimeType says otherwise. */
export const TEXT_MIME_TYPE = "text/plain";

const MIME_BY_EXTENSION: ReadonlyMap<string, string> = new Map(
  Object.entries(ALLOWED_MIME_TYPES).flatMap(([type, extensions]) => extensions.map((ext) => [ext, type] as const)),
);

/** The MIME type a file extension stands for, or undefined when the API accepts none for it. */
export function mimeTypeForPath(path: string): string | undefined {
  const dot = path.lastIndexOf(".");
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (dot <= slash + 1) return undefined;
  return MIME_BY_EXTENSION.get(path.slice(dot + 1).toLowerCase());
}

/** An asset input as a dynamic provider receives it: the signature, the engine's sha256 and its source. */
export const AssetInput = z.object({
  [SIG_KEY]: z.literal(ASSET_SIG),
  hash: z.string().optional(),
  path: z.string().optional(),
  text: z.string().optional(),
  uri: z.string().optional(),
});
export type AssetInput = z.infer<typeof AssetInput>;

/** An object name, or a name prefix, as the blob API takes them. */
export const objectName = shortName;
/** The days an object may be kept, in words. */
export const EXPIRY_RULE = `1 to ${MAX_EXPIRE_DAYS} days`;

/** Left out, the option is off: writing `false` out (or removing it) is no change. */
export function offUnlessTrue(option: string): ChangeRule {
  const value = (props: Record<string, unknown>) => props[option] ?? false;
  return (olds, news) => (isUnknown(news[option]) || value(olds) !== value(news) ? "replace" : "none");
}

export const blobObject = declareKind({
  name: "BlobObject",
  kind: "blobObject",
  description: `A file on the blob storage's CDN, uploaded from a FileAsset or a StringAsset.

The API cannot change an object: a new content (compared by hash) or any other input replaces
it, the new object first, then the old one is deleted, so dependents get the new \`url\` in the
same update and the old URL works until then. The MIME type is inferred from the file's
extension unless given (text/plain for a StringAsset). \`adoptId\` takes over an existing object
instead of uploading.`,
  inputs: {
    source: field(
      z.unknown(),
      "The content: a FileAsset (its path relative to the project directory) or a StringAsset.",
      {
        sdkType: "pulumi.asset.FileAsset | pulumi.asset.StringAsset",
      },
    ),
    name: field(objectName, `${NAME_RULE}.`),
    prefix: field(objectName.optional(), "The object's folder: its id is <account>/<prefix>/<name>_..."),
    mimeType: field(
      z
        .string({ error: "must be a string" })
        .refine((type) => type in ALLOWED_MIME_TYPES, {
          error: `must be one of ${Object.keys(ALLOWED_MIME_TYPES).join(", ")}`,
        })
        .optional(),
      "Inferred from the file's extension when omitted (text/plain for a StringAsset).",
    ),
    expireDays: field(
      z
        .number({ error: "must be a number of days" })
        .int({ error: "must be a whole number of days" })
        .min(1, { error: `must be from ${EXPIRY_RULE}` })
        .max(MAX_EXPIRE_DAYS, { error: `must be from ${EXPIRY_RULE}` })
        .optional(),
      `Days until the service deletes the object (${EXPIRY_RULE}).`,
    ),
    securityHash: field(
      z.boolean({ error: "must be true or false" }).optional(),
      "A long random hash in the id instead of a short content hash, so the URL cannot be guessed.",
    ),
    autoDownload: field(
      z.boolean({ error: "must be true or false" }).optional(),
      "The CDN makes browsers download the file instead of showing it.",
    ),
    adoptId: field(
      z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional(),
      "Take over this existing object (its full id) at creation instead of uploading; read only then.",
    ),
  },
  outputs: {
    mimeType: field(z.string(), "As given, or as inferred."),
    url: field(z.string(), "The public CDN URL."),
    size: field(z.number(), "The object's size in bytes."),
    createdAt: field(z.string(), "ISO 8601, on the server's clock."),
    expiresAt: field(z.string().optional(), "ISO 8601, when expireDays is set."),
    sha256: field(z.string(), "Hex sha256 of the uploaded bytes."),
  },
  notOutputs: ["source"],
  replaceOn: ["source", "name", "prefix", "mimeType", "expireDays", "securityHash", "autoDownload"],
  changes: {
    // The engine's hash is the sha256 of the content; without one (not computed yet) it may differ.
    source: (olds, news) =>
      isUnknown(news.source) || news.source.hash === undefined || news.source.hash !== olds.sha256 ? "replace" : "none",
    securityHash: offUnlessTrue("securityHash"),
    autoDownload: offUnlessTrue("autoDownload"),
  },
  visibility: { notFound: "OBJECT_NOT_FOUND" },
  adoption: { noun: "object" },
  apis: ["platform", "blob"],
  import: {
    refused: "its content (the `source` asset) cannot be read back from the CDN, and a program must state it",
    instead:
      "declare it with its source and `adoptId` set to the object's id: the next `pulumi up` takes the object over instead " +
      "of uploading when its name, prefix and size are the source's, and a later change of any input replaces it with a new upload",
  },
});

type DeclaredInputs = InputsOf<typeof blobObject>;
export type BlobObjectInputs = Omit<DeclaredInputs, "source"> & { source: AssetInput };
export type BlobObjectOutputs = Omit<OutputsOf<typeof blobObject>, "source"> & { source: AssetInput };
