import { createHmac } from "node:crypto";
import { derivedHex } from "../random";

/** Pre-signed download links stay valid this long after they are handed out. */
const PRESIGNED_TTL_S = 15 * 60;
/** A fixed signing secret: signatures only need to look real and be stable for the same input. */
const SIGNING_SECRET = "squarecloud-emulator-snapshots";

/**
 * The query string of a pre-signed S3-style URL (access key, expiry, signature), as the real
 * service returns in snapshot `key` fields; database snapshots also carry their versionId.
 */
export function presignedKey(objectPath: string, nowMs: number, versionId?: string): string {
  const expires = Math.floor(nowMs / 1000) + PRESIGNED_TTL_S;
  const params = new URLSearchParams({
    AWSAccessKeyId: `SQEMU${derivedHex("access-key", 15).toUpperCase()}`,
    Expires: String(expires),
    Signature: signature(objectPath, expires, versionId),
  });
  if (versionId) params.set("versionId", versionId);
  return params.toString();
}

/** Whether a download's query is a key handed out for this path (and version), not yet expired. */
export function presignedKeyValid(objectPath: string, query: URLSearchParams, nowMs: number): boolean {
  const expires = Number(query.get("Expires"));
  if (!Number.isSafeInteger(expires) || expires * 1000 < nowMs) return false;
  return query.get("Signature") === signature(objectPath, expires, query.get("versionId") ?? undefined);
}

function signature(objectPath: string, expires: number, versionId: string | undefined): string {
  return createHmac("sha1", SIGNING_SECRET)
    .update(`${objectPath}\n${expires}\n${versionId ?? ""}`)
    .digest("base64");
}
