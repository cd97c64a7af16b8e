import { createHash } from "node:crypto";
import type { ClientConfig } from "../config";
import { type Clock, systemClock } from "./clock";
import { HttpClient } from "./http";
import { type AccountLimits, limitsFor } from "./pacing";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import { assembleClient, type SquareCloudClient } from "./squarecloud";
import { USER_AGENT } from "./version";

// What resources and data sources need; the modules themselves are imported directly by tests.
export { ApiError, isNotFound } from "./errors";
export type { Clock } from "./clock";
export type { RetryPolicy, Settle } from "./retry";
export { Found } from "./retry";
export type { AccountLimits } from "./pacing";
export type { SquareCloudClient } from "./squarecloud";
export type { CreateDatabaseInput, UpdateDatabaseInput } from "./endpoints/databases";
export type { UploadObjectInput } from "./endpoints/blob";

export interface ClientOptions {
  /** Per attempt: connect, send, headers and body. Default 30 s. */
  timeoutMs?: number;
  /** Per upload attempt. Default 5 minutes (files up to 100 MB). */
  uploadTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Tests inject a fake clock so waits take no real time. */
  clock?: Clock;
  random?: () => number;
  /** Default: shared by every client of the same account and clock in this process. */
  limits?: AccountLimits;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;

/** The client resources and data sources use; `close()` it when done to free its connections. */
export function createClient(config: ClientConfig, options: ClientOptions = {}): SquareCloudClient {
  const clock = options.clock ?? systemClock;
  const common = {
    apiKey: config.apiKey,
    userAgent: USER_AGENT,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    clock,
    random: options.random ?? Math.random,
  };
  return assembleClient({
    platform: new HttpClient({ ...common, baseUrl: config.platformUrl, sources: sourcesOf(config, "platformUrl") }),
    blob: new HttpClient({ ...common, baseUrl: config.blobUrl, sources: sourcesOf(config, "blobUrl") }),
    limits: options.limits ?? limitsFor(accountKey(config), clock),
    uploadTimeoutMs: options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS,
  });
}

function sourcesOf(config: ClientConfig, url: "platformUrl" | "blobUrl"): { url: string; key: string } | undefined {
  return config.sources && { url: config.sources[url], key: config.sources.apiKey };
}

/** Identifies an account without keeping its key in a map. */
export function accountKey(config: ClientConfig): string {
  const keyHash = createHash("sha256").update(config.apiKey).digest("hex");
  return `${config.platformUrl} ${config.blobUrl} ${keyHash}`;
}
