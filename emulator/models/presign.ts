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
  const signature = createHmac("sha1", SIGNING_SECRET)
    .update(`${objectPath}\n${expires}\n${versionId ?? ""}`)
    .digest("base64");
  const params = new URLSearchParams({
    AWSAccessKeyId: `SQEMU${derivedHex("access-key", 15).toUpperCase()}`,
    Expires: String(expires),
    Signature: signature,
  });
  if (versionId) params.set("versionId", versionId);
  return params.toString();
}
