import { DAY_MS, iso } from "../clock";
import { apiError, blobNotInPlan } from "../errors";
import { sha256Hex } from "../random";
import type { AccountRecord, BlobObjectRecord } from "../state";
import type { ContentStore } from "../store/content-store";
import type { ModelContext } from "./model-context";
import {
  ACCOUNT_STATS_CACHE_MS,
  OBJECT_EXPIRE_MAX_DAYS,
  OBJECT_ID_PATTERN,
  OBJECT_LIST_CACHE_MS,
  OBJECT_LIST_PAGE_SIZE,
  OBJECT_NAME_PATTERN,
  type ObjectIdForm,
  UPLOAD_MAX_BYTES,
  UPLOAD_MIME_EXTENSIONS,
  UPLOAD_MIN_BYTES,
  UPLOADS_IN_FLIGHT_LIMIT,
} from "./rules";

export interface UploadOptions {
  name: string;
  prefix?: string;
  expireDays?: number;
  securityHash: boolean;
  autoDownload: boolean;
}

export interface UploadedFile {
  contentType: string;
  data: Buffer;
}

/** Illustrative prices in BRL: the reference gives the fields and units, not the tariff. */
const PRICE_PER_EXTRA_GB = 0.5;
const PRICE_PER_OBJECT = 0.00001;

interface Cached<T> {
  at: number;
  value: T;
}

/** Listings and statistics are cached like the real service's, so a list right after an upload may miss it. */
export class BlobObjectsModel {
  private readonly listCache = new Map<string, Cached<object>>();
  private readonly statsCache = new Map<string, Cached<object>>();
  private readonly uploadsInFlight = new Map<string, number>();
  /** The most uploads each account had in flight at once, for tests of client-side limits. */
  private readonly uploadsPeak = new Map<string, number>();

  constructor(
    private readonly ctx: ModelContext,
    private readonly contents: ContentStore,
    /** How the ids of new uploads are formed; changed through the admin surface. */
    public objectIds: ObjectIdForm,
  ) {}

  /**
   * Expired objects disappear, contents included: called before every blob operation. Tells
   * whether any did, for callers that otherwise change nothing (a CDN fetch) to save only then.
   */
  purgeExpired(): boolean {
    const now = this.ctx.clock.now();
    const objects = this.ctx.data.blobObjects;
    const expired = objects.filter((o) => o.expiresAt !== undefined && o.expiresAt <= now);
    if (expired.length === 0) return false;
    for (const o of expired) this.contents.delete(o.id);
    this.ctx.data.blobObjects = objects.filter((o) => !expired.includes(o));
    return true;
  }

  /**
   * Counts an upload as in flight from the moment its request arrives until its response is done;
   * the fifth concurrent one is refused. Returns the release function.
   */
  beginUpload(account: AccountRecord): () => void {
    if (account.plan.blobIncludedBytes === 0) throw blobNotInPlan();
    const current = this.uploadsInFlight.get(account.id) ?? 0;
    if (current >= UPLOADS_IN_FLIGHT_LIMIT) throw apiError("TOO_MANY_CONCURRENT_UPLOADS");
    this.uploadsInFlight.set(account.id, current + 1);
    this.uploadsPeak.set(account.id, Math.max(current + 1, this.uploadsPeak.get(account.id) ?? 0));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.uploadsInFlight.get(account.id) ?? 1) - 1;
      if (left > 0) this.uploadsInFlight.set(account.id, left);
      else this.uploadsInFlight.delete(account.id);
    };
  }

  /** Account id -> the most uploads it had in flight at once since the last reset. */
  peakUploadsInFlight(): Record<string, number> {
    return Object.fromEntries(this.uploadsPeak);
  }

  /** `publicBaseUrl`: where the local CDN serves objects; the answer's `url` is it plus the id. */
  upload(account: AccountRecord, options: UploadOptions, file: UploadedFile | undefined, publicBaseUrl: string) {
    if (!file) throw apiError("INVALID_FILE");
    const extension = UPLOAD_MIME_EXTENSIONS[file.contentType];
    if (!extension) throw apiError("INVALID_FILE_TYPE");
    if (file.data.length < UPLOAD_MIN_BYTES) throw apiError("FILE_TOO_SMALL");
    if (file.data.length > UPLOAD_MAX_BYTES) throw apiError("FILE_TOO_LARGE");
    const now = this.ctx.clock.now();
    const sha256 = sha256Hex(file.data);
    // security_hash makes the id unguessable: a long random hash instead of a content digest.
    const folder = options.prefix ? `${options.prefix}/` : "";
    const key = `object ${account.id}/${folder}${options.name} ${sha256}`;
    const hash = options.securityHash ? this.ctx.ids.hex(32, `${key} hash`) : sha256.slice(0, 4);
    const expiry = options.expireDays && this.objectIds === "suffixed" ? `-ex${options.expireDays}` : "";
    const id = `${account.id}/${folder}${options.name}_${this.ctx.ids.base36(8, key)}-${hash}${expiry}.${extension}`;
    const record: BlobObjectRecord = {
      id,
      accountId: account.id,
      name: options.name,
      size: file.data.length,
      contentType: file.contentType,
      sha256,
      autoDownload: options.autoDownload,
      createdAt: now,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      ...(options.expireDays ? { expiresAt: now + options.expireDays * DAY_MS } : {}),
    };
    this.ctx.data.blobObjects.push(record);
    this.contents.put(id, file.data);
    return {
      id,
      name: record.name,
      ...(record.prefix ? { prefix: record.prefix } : {}),
      size: record.size,
      url: `${publicBaseUrl}/${id}`,
    };
  }

  /**
   * Up to 1000 objects per page in id order; `continuationToken` in the response when more
   * remain. `prefix` matches the start of the name after "<account_id>/".
   */
  list(account: AccountRecord, prefix: string | undefined, token: string | undefined): object {
    const now = this.ctx.clock.now();
    const key = `${account.id}\u0000${prefix ?? ""}\u0000${token ?? ""}`;
    const cached = fresh(this.listCache.get(key), now, OBJECT_LIST_CACHE_MS);
    if (cached) return cached;
    const after = token === undefined ? undefined : decodeToken(account, token);
    const base = `${account.id}/`;
    const matching = this.ctx.data.blobObjects
      .filter((o) => o.accountId === account.id && o.id.startsWith(base + (prefix ?? "")))
      .filter((o) => after === undefined || o.id > after)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const page = matching.slice(0, OBJECT_LIST_PAGE_SIZE);
    const last = page[page.length - 1];
    const value = {
      objects: page.map((o) => ({
        id: o.id,
        size: o.size,
        created_at: iso(o.createdAt),
        ...(o.expiresAt !== undefined ? { expires_at: iso(o.expiresAt) } : {}),
      })),
      ...(matching.length > page.length && last ? { continuationToken: encodeToken(last.id) } : {}),
    };
    this.listCache.set(key, { at: now, value });
    return value;
  }

  /** One object per request; another account's id cannot be deleted (INVALID_OBJECT). */
  delete(account: AccountRecord, objectId: string): void {
    const match = OBJECT_ID_PATTERN.exec(objectId);
    if (!match || match[1] !== account.id) throw apiError("INVALID_OBJECT");
    const objects = this.ctx.data.blobObjects;
    if (!objects.some((o) => o.id === objectId)) throw apiError("OBJECT_NOT_FOUND");
    this.ctx.data.blobObjects = objects.filter((o) => o.id !== objectId);
    this.contents.delete(objectId);
  }

  /**
   * What the local CDN serves for a public URL: anyone may read it, like the real CDN. Seeded
   * objects and contents dropped by the store's bound have no bytes: 404 CONTENT_NOT_KEPT.
   */
  publicContent(objectId: string): { record: BlobObjectRecord; data: Buffer } {
    const record = this.ctx.data.blobObjects.find((o) => o.id === objectId);
    if (!record) throw apiError("OBJECT_NOT_FOUND");
    const data = this.contents.get(objectId);
    if (!data) throw apiError("CONTENT_NOT_KEPT");
    return { record, data };
  }

  stats(account: AccountRecord): object {
    const now = this.ctx.clock.now();
    const cached = fresh(this.statsCache.get(account.id), now, ACCOUNT_STATS_CACHE_MS);
    if (cached) return cached;
    const mine = this.ctx.data.blobObjects.filter((o) => o.accountId === account.id);
    const storage = mine.reduce((sum, o) => sum + o.size, 0);
    const included = account.plan.blobIncludedBytes;
    const extraStorage = Math.max(0, storage - included);
    const storagePrice = round((extraStorage / 1024 ** 3) * PRICE_PER_EXTRA_GB);
    const objectsPrice = round(mine.length * PRICE_PER_OBJECT);
    const value = {
      usage: { objects: mine.length, storage },
      plan: { included },
      billing: { extraStorage, storagePrice, objectsPrice, totalEstimate: round(storagePrice + objectsPrice) },
    };
    this.statsCache.set(account.id, { at: now, value });
    return value;
  }
}

/** Name, prefix and expiry as given in the upload query; each has its own error code. */
export function validateUploadOptions(query: URLSearchParams): UploadOptions {
  const name = query.get("name") ?? "";
  if (!OBJECT_NAME_PATTERN.test(name)) throw apiError("INVALID_OBJECT_NAME");
  const prefix = query.get("prefix") ?? undefined;
  if (prefix !== undefined && !OBJECT_NAME_PATTERN.test(prefix)) throw apiError("INVALID_OBJECT_PREFIX");
  const expire = query.get("expire") ?? undefined;
  let expireDays: number | undefined;
  if (expire !== undefined) {
    expireDays = /^\d{1,3}$/.test(expire) ? Number(expire) : NaN;
    if (!(expireDays >= 1 && expireDays <= OBJECT_EXPIRE_MAX_DAYS)) throw apiError("INVALID_OBJECT_EXPIRE");
  }
  return {
    name,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(expireDays !== undefined ? { expireDays } : {}),
    securityHash: query.get("security_hash") === "true",
    autoDownload: query.get("auto_download") === "true",
  };
}

export function validateListPrefix(prefix: string | undefined): void {
  if (prefix !== undefined && !OBJECT_NAME_PATTERN.test(prefix)) throw apiError("INVALID_OBJECT_PREFIX");
}

function fresh<T>(entry: Cached<T> | undefined, now: number, ttl: number): T | undefined {
  return entry && now >= entry.at && now - entry.at < ttl ? entry.value : undefined;
}

/** Tokens are opaque to clients: the last id of the previous page, base64url-encoded. */
function encodeToken(lastId: string): string {
  return Buffer.from(lastId).toString("base64url");
}

function decodeToken(account: AccountRecord, token: string): string {
  const id = /^[A-Za-z0-9_-]{1,400}$/.test(token) ? Buffer.from(token, "base64url").toString() : "";
  const match = OBJECT_ID_PATTERN.exec(id);
  if (!match || match[1] !== account.id) throw apiError("INVALID_CONTINUATION_TOKEN");
  return id;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
