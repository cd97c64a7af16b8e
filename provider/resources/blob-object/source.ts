import { createHash } from "node:crypto";
import { readFileSync, type Stats, statSync } from "node:fs";
import { isUnknown, type CheckFailure, describe } from "../../field-check";
import { ARCHIVE_SIG, SIG_KEY } from "../../signatures";
import {
  ALLOWED_MIME_TYPES,
  AssetInput,
  MAX_OBJECT_BYTES,
  MIN_OBJECT_BYTES,
  mimeTypeForPath,
  TEXT_MIME_TYPE,
} from "../../kinds/blob-object";

// A FileAsset's path is relative to the project, where the provider process runs.

const ASSET_RULE = "must be a pulumi.asset.FileAsset or pulumi.asset.StringAsset";

/** Failures for `source`, and for a `mimeType` left out (unknown counts as given) that no extension gives. */
export function checkSource(value: unknown, mimeTypeGiven: boolean): CheckFailure[] {
  if (isUnknown(value)) return [];
  const parsed = AssetInput.safeParse(value);
  if (!parsed.success) return [{ property: "source", reason: `${ASSET_RULE}, got ${kindOf(value)}` }];
  const asset = parsed.data;
  if (asset.uri !== undefined) {
    return [
      {
        property: "source",
        reason: `${ASSET_RULE}: a RemoteAsset is not uploaded (the provider reads the content itself), got a RemoteAsset of ${JSON.stringify(asset.uri)}`,
      },
    ];
  }
  if (asset.path !== undefined) {
    if (isUnknown(asset.path)) return [];
    const failures = checkFile(asset.path);
    if (!mimeTypeGiven && mimeTypeForPath(asset.path) === undefined) {
      failures.push({
        property: "mimeType",
        reason: `is required when the file's extension maps to no accepted MIME type (${Object.keys(ALLOWED_MIME_TYPES).join(", ")}), got none for ${JSON.stringify(asset.path)}`,
      });
    }
    return failures;
  }
  if (asset.text !== undefined) return checkSize(Buffer.byteLength(asset.text), "a StringAsset");
  return [{ property: "source", reason: `${ASSET_RULE}, got an asset with neither a path nor a text` }];
}

function checkFile(path: string): CheckFailure[] {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return [
      {
        property: "source",
        reason: describe(`must name an existing file (relative to the project directory ${process.cwd()})`, path),
      },
    ];
  }
  if (!stats.isFile()) return [{ property: "source", reason: describe("must name a file, not a directory", path) }];
  return checkSize(stats.size, JSON.stringify(path));
}

function checkSize(bytes: number, what: string): CheckFailure[] {
  if (bytes >= MIN_OBJECT_BYTES && bytes <= MAX_OBJECT_BYTES) return [];
  return [
    {
      property: "source",
      reason: `must be from 1 KiB (${MIN_OBJECT_BYTES} bytes) to 100 MB (${MAX_OBJECT_BYTES} bytes), got ${what} of ${bytes} bytes`,
    },
  ];
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === ARCHIVE_SIG)
    return "an archive";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/** The bytes to upload. */
export function readSource(source: AssetInput): Buffer {
  if (source.path !== undefined) return readFileSync(source.path);
  if (source.text !== undefined) return Buffer.from(source.text);
  throw new Error(
    `the source ${source.uri === undefined ? "has no content" : "is a RemoteAsset, which is not uploaded"}`,
  );
}

export function sha256Of(content: Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/** As given, else inferred from the file's extension, text/plain for a StringAsset. */
export function resolvedMimeType(mimeType: string | undefined, source: AssetInput): string | undefined {
  if (mimeType !== undefined) return mimeType;
  return source.path !== undefined ? mimeTypeForPath(source.path) : TEXT_MIME_TYPE;
}
