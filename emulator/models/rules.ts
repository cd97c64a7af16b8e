/** Both APIs' rules and limits in one place; a limit the reference gives no number for says the value chosen. */
import type { DatabaseType, WorkspaceGroup } from "../state";

/**
 * Database names: alphanumeric a-z A-Z 0-9 (the reference), nothing more: no length is published, so none is
 * invented. The JSON body limit is what stops absurd sizes.
 */
export const DATABASE_NAME_PATTERN = /^[a-zA-Z0-9]+$/;
/** Engine versions in dotted numeric form, such as 7.0 or 7.4.5, with any number of parts (the reference). */
export const DATABASE_VERSION_PATTERN = /^\d+(\.\d+)*$/;
export const DATABASE_TYPES = ["mongo", "redis"] as const satisfies readonly DatabaseType[];
export const DATABASE_MIN_MEMORY_MB: Record<DatabaseType, number> = { redis: 512, mongo: 1024 };

/** CPU allocation grows with memory: one unit per GB, at least one. */
export function cpuFor(memoryMb: number): number {
  return Math.max(1, Math.round(memoryMb / 1024));
}

/** Workspace names, blob object names and prefixes share one pattern. */
export const WORKSPACE_NAME_PATTERN = /^[a-zA-Z0-9_]{3,32}$/;
/** Names of accounts the admin surface adds (an emulator choice: the reference creates none). */
export const ACCOUNT_NAME_PATTERN = /^[a-zA-Z0-9_]{3,32}$/;
export const OBJECT_NAME_PATTERN = /^[a-zA-Z0-9_]{3,32}$/;

export const ASSIGNABLE_GROUPS = ["admin", "maintain", "manager", "view"] as const satisfies readonly WorkspaceGroup[];
/** Groups whose members may change other members' groups: the owner and admins. */
export const GROUP_MANAGERS: readonly WorkspaceGroup[] = ["owner", "admin"];
/** Groups that may act on linked apps (snapshot, move files); every member may read them. */
export const APP_WRITERS: readonly WorkspaceGroup[] = ["owner", "admin", "maintain"];
export const INVITE_CODE_PATTERN = /^[0-9a-f]{32}$/;
export const INVITE_CODE_TTL_MS = 5 * 60_000;
export const WORKSPACE_APPS_LIMIT = 100;
/** Not published: chosen so the limit is reachable in a test yet never in normal use. */
export const WORKSPACE_MEMBERS_LIMIT = 20;
/** Not published: workspaces one account may own. */
export const WORKSPACES_OWNED_LIMIT = 10;

/** Identifiers in paths and bodies: letters, digits, '_' and '-' only, which also rules out traversal. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * Segments the live service routes on their own where the reference has an id (the official client's
 * `GET /v2/apps/status`, `/v2/databases/status`, `/v2/apps/domains`, ...): outside the reference, so
 * they answer ROUTE_NOT_FOUND instead of being looked up as ids.
 */
export const RESERVED_PATH_SEGMENTS: ReadonlySet<string> = new Set([
  "status",
  "domains",
  "load-balancers",
  "upload",
  "leave",
  "members",
  "applications",
]);
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ANALYTICS_CACHE_MS = 10_000;
export const SNAPSHOT_RATE_MS = 5_000;
export const SNAPSHOT_QUOTA_WINDOW_MS = 24 * 60 * 60_000;
export const RESTORE_RATE_MS = 60_000;
export const DEPLOYMENT_WINDOW_MS = 24 * 60 * 60_000;
export const DEPLOYMENTS_SHOWN = 10;

/** (RAM / 256) * 2 app snapshots per 24 h, RAM being the plan's memory (docs/service-limits.md). */
export function dailySnapshotQuota(planMemoryMb: number): number {
  return Math.floor(planMemoryMb / 256) * 2;
}

export const OBJECT_LIST_CACHE_MS = 30_000;
export const ACCOUNT_STATS_CACHE_MS = 60_000;
export const OBJECT_LIST_PAGE_SIZE = 1000;
export const UPLOAD_MIN_BYTES = 1024;
export const UPLOAD_MAX_BYTES = 100 * 1000 * 1000;
export const UPLOADS_IN_FLIGHT_LIMIT = 4;
export const OBJECT_EXPIRE_MAX_DAYS = 365;

/**
 * Accepted upload MIME types (the official SDK's list) and the extension each gets in
 * the object id. The first extension listed is the one used.
 */
export const UPLOAD_MIME_EXTENSIONS: Readonly<Record<string, string>> = {
  "video/mp4": "mp4",
  "video/mpeg": "mpeg",
  "video/webm": "webm",
  "video/x-flv": "flv",
  "video/x-m4v": "m4v",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/apng": "apng",
  "image/tiff": "tiff",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/bmp": "bmp",
  "image/svg+xml": "svg",
  "image/x-icon": "ico",
  "image/ico": "ico",
  "image/cur": "cur",
  "image/heic": "heic",
  "image/heif": "heif",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "audio/opus": "opus",
  "audio/mp4": "mp4",
  "audio/mpeg": "mp3",
  "audio/aac": "aac",
  "text/plain": "txt",
  "text/html": "html",
  "text/css": "css",
  "text/csv": "csv",
  "text/x-sql": "sql",
  "application/xml": "xml",
  "application/sql": "sql",
  "application/x-sql": "sql",
  "application/x-sqlite3": "sqlite3",
  "application/x-pkcs12": "pfx",
  "application/pdf": "pdf",
  "application/json": "json",
  "application/javascript": "js",
};

/**
 * How the ids of uploads are formed: "suffixed" ends an expiring object's id in -ex<days> (as the
 * reference's example does), "plain" never does, as a server may, since the reference marks it optional.
 */
export type ObjectIdForm = "suffixed" | "plain";
export const OBJECT_ID_FORMS: readonly ObjectIdForm[] = ["suffixed", "plain"];

export function isObjectIdForm(value: unknown): value is ObjectIdForm {
  return OBJECT_ID_FORMS.includes(value as ObjectIdForm);
}

/**
 * Object ids: <account_id>/[<prefix>/]<name>_<random>-<hash>[-ex<days>].<ext>. Anything else,
 * including traversal segments and odd characters, is INVALID_OBJECT.
 */
export const OBJECT_ID_PATTERN =
  /^(\d{1,24})\/(?:([a-zA-Z0-9_]{3,32})\/)?([a-zA-Z0-9_]{3,32})_[a-z0-9]{8}-[0-9a-f]{4,32}(?:-ex\d{1,3})?\.[a-z0-9]{2,8}$/;

/**
 * The local stand-in for the public CDN (https://public-blob.squarecloud.dev/<id> on the live
 * service): the blob server serves each object's bytes at <blob URL>/public/<id>, without auth.
 */
export const PUBLIC_CONTENT_PATH = "/public";
/** Where the platform server serves snapshot archives (the live service: https://snapshots.squarecloud.app). */
export const SNAPSHOT_DOWNLOAD_PATH = "/snapshots";
