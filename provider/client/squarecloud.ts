import { z } from "zod";
import * as blob from "./payloads/blob";
import * as platform from "./payloads/platform";
import { invalidResponse, refusedLocally } from "./errors";
import type { HttpClient } from "./http";
import type { AccountLimits } from "./pacing";

/**
 * The single entry point resources and data sources use: one typed method per endpoint of the
 * platform and blob APIs. Every call names its operation and, where known, the object it is
 * about, so an error reads like `delete database "db_123" failed: ...`. POST calls are the
 * non-idempotent ones: on an unknown outcome they throw an ApiError with mayHaveCommitted set
 * and the caller reconciles by reading, unless the call settles it itself (a `settle` read:
 * done, or sent again with the client's backoff).
 */

export interface CreateDatabaseInput {
  /** Alphanumeric a-z A-Z 0-9. */
  name: string;
  type: platform.DatabaseType;
  /** MB; at least 512 for redis and 1024 for mongo. */
  memory: number;
  /** Engine version in dotted numeric form, e.g. "7.4.5". */
  version: string;
}

export interface UpdateDatabaseInput {
  name?: string;
  /** MB. */
  ram?: number;
}

export interface UploadObjectInput {
  /** ^[a-zA-Z0-9_]{3,32}$ */
  name: string;
  /** ^[a-zA-Z0-9_]{3,32}$ */
  prefix?: string;
  /** 1 to 365 days. */
  expireDays?: number;
  securityHash?: boolean;
  autoDownload?: boolean;
  /** 1 KiB to 100 MB. */
  content: Buffer;
  mimeType: string;
  /** Receives the server's clock at the answer (its Date header), the object's creation time. */
  serverTime?: (epochMs: number) => void;
}

export interface SquareCloudClientParts {
  platform: HttpClient;
  blob: HttpClient;
  limits: AccountLimits;
  /** Per-attempt timeout of uploads, which may carry up to 100 MB. */
  uploadTimeoutMs: number;
}

const AccountDatabases = z.object({ databases: z.array(platform.DatabaseSummary).default([]) });

/**
 * Provisioning a database can outlast an ordinary request; giving up early turns a create that
 * would have succeeded into one whose outcome must be reconciled.
 */
const DATABASE_CREATE_TIMEOUT_MS = 120_000;

export class SquareCloudClient {
  private readonly platform: HttpClient;
  private readonly blob: HttpClient;
  private readonly limits: AccountLimits;
  private readonly uploadTimeoutMs: number;

  constructor(parts: SquareCloudClientParts) {
    this.platform = parts.platform;
    this.blob = parts.blob;
    this.limits = parts.limits;
    this.uploadTimeoutMs = parts.uploadTimeoutMs;
  }

  async close(): Promise<void> {
    await Promise.all([this.platform.close(), this.blob.close()]);
  }

  // ---- account and applications

  me(): Promise<platform.Account> {
    return this.platform.request({
      operation: "read account",
      method: "GET",
      path: "/v2/users/me",
      schema: platform.Account,
    });
  }

  getApp(appId: string): Promise<platform.App> {
    return this.platform.request({
      operation: "get application",
      resource: appId,
      method: "GET",
      path: "/v2/apps/{appId}",
      params: { appId },
      schema: platform.App,
    });
  }

  /** Paced to one request per 10 s per application and range, the server's uncached rate. */
  appAnalytics(appId: string, range: platform.AnalyticsRange = "daily"): Promise<platform.Analytics> {
    return this.platform.request({
      operation: "read application analytics",
      resource: appId,
      method: "GET",
      path: "/v2/apps/{appId}/network/analytics",
      params: { appId },
      query: { range },
      schema: platform.Analytics,
      gate: this.limits.analytics(appId, range),
    });
  }

  /** Up to the last 10 deployments of the past 24 hours, each a list of events, earliest first. */
  appDeployments(appId: string): Promise<platform.DeploymentEvent[][]> {
    return this.platform.request({
      operation: "list application deployments",
      resource: appId,
      method: "GET",
      path: "/v2/apps/{appId}/deployments",
      params: { appId },
      schema: platform.Deployments,
    });
  }

  /** The result carries a pre-signed URL: treat it as a secret. Paced to one per 5 s. */
  createAppSnapshot(appId: string): Promise<platform.AppSnapshot> {
    return this.platform.request({
      operation: "create application snapshot",
      resource: appId,
      method: "POST",
      path: "/v2/apps/{appId}/snapshots",
      params: { appId },
      schema: platform.AppSnapshot,
      gate: this.limits.appSnapshot(),
    });
  }

  /**
   * Moves or renames one file; both paths are relative to the application root. Fails with
   * FILE_NOT_FOUND when the source is missing and DIRECTORY_NOT_FOUND when the destination's
   * directory does not exist; an existing destination is overwritten. Retried like any PATCH: once
   * a lost attempt has moved the file, the retry finds nothing at `path` and is refused with
   * FILE_NOT_FOUND (marked afterLostAttempt), so nothing is ever moved twice.
   */
  moveAppFile(appId: string, move: { path: string; to: string }): Promise<void> {
    return this.platform.request({
      operation: "move application file",
      resource: appId,
      method: "PATCH",
      path: "/v2/apps/{appId}/files",
      params: { appId },
      json: { path: move.path, to: move.to },
    });
  }

  /** Most recent first. Each entry's `key` is a pre-signed credential. */
  listSnapshots(scope: platform.SnapshotScope = "applications"): Promise<platform.SnapshotEntry[]> {
    return this.platform.request({
      operation: `list ${scope === "databases" ? "database" : "application"} snapshots`,
      method: "GET",
      path: "/v2/users/snapshots",
      query: { scope },
      schema: platform.SnapshotList,
    });
  }

  // ---- databases

  /** The only response that shows the password. Not retried once the request may have been sent. */
  createDatabase(input: CreateDatabaseInput): Promise<platform.CreatedDatabase> {
    return this.platform.request({
      operation: "create database",
      resource: input.name,
      method: "POST",
      path: "/v2/databases",
      json: { name: input.name, memory: input.memory, type: input.type, version: input.version },
      schema: platform.CreatedDatabase,
      timeoutMs: DATABASE_CREATE_TIMEOUT_MS,
    });
  }

  getDatabase(databaseId: string): Promise<platform.DatabaseDetails> {
    return this.platform.request({
      operation: "get database",
      resource: databaseId,
      method: "GET",
      path: "/v2/databases/{databaseId}",
      params: { databaseId },
      schema: platform.DatabaseDetails,
    });
  }

  /** The account's databases, from /v2/users/me; credentials are never part of the result. */
  async listDatabases(): Promise<platform.DatabaseSummary[]> {
    const account = await this.platform.request({
      operation: "list databases",
      method: "GET",
      path: "/v2/users/me",
      schema: AccountDatabases,
    });
    return account.databases;
  }

  /** Refuses an empty change locally: the API answers NO_UPDATE_DATA to it. */
  updateDatabase(databaseId: string, change: UpdateDatabaseInput): Promise<void> {
    const context = {
      operation: "update database",
      resource: databaseId,
      method: "PATCH",
      path: "/v2/databases/{databaseId}",
    } as const;
    const json: UpdateDatabaseInput = {};
    if (change.name !== undefined) json.name = change.name;
    if (change.ram !== undefined) json.ram = change.ram;
    if (Object.keys(json).length === 0) {
      return Promise.reject(refusedLocally(context, "NO_UPDATE_DATA", "nothing to change: give name or ram"));
    }
    return this.platform.request({ ...context, params: { databaseId }, json });
  }

  deleteDatabase(databaseId: string): Promise<void> {
    return this.platform.request({
      operation: "delete database",
      resource: databaseId,
      method: "DELETE",
      path: "/v2/databases/{databaseId}",
      params: { databaseId },
    });
  }

  /** Base64 PEM text; fails with DATABASE_NOT_RUNNING while the database is stopped. */
  async getDatabaseCertificate(databaseId: string): Promise<string> {
    const { certificate } = await this.platform.request({
      operation: "get database certificate",
      resource: databaseId,
      method: "GET",
      path: "/v2/databases/{databaseId}/credentials/certificate",
      params: { databaseId },
      schema: platform.DatabaseCertificate,
    });
    return certificate;
  }

  /**
   * Invalidates the old credential. A password reset returns the new password, shown once; a
   * certificate reset returns nothing (read the certificate afterwards).
   */
  resetDatabaseCredentials(databaseId: string, kind: "password"): Promise<{ password: string }>;
  resetDatabaseCredentials(databaseId: string, kind: "certificate"): Promise<void>;
  resetDatabaseCredentials(databaseId: string, kind: platform.CredentialKind): Promise<{ password: string } | void> {
    const request = {
      operation: `reset database ${kind}`,
      resource: databaseId,
      method: "POST",
      path: "/v2/databases/{databaseId}/credentials/reset",
      params: { databaseId },
      json: { reset: kind },
    } as const;
    return kind === "password"
      ? this.platform.request({ ...request, schema: platform.PasswordReset })
      : this.platform.request(request);
  }

  /** Most recent first, one point per 5 minutes. */
  databaseMetrics(databaseId: string): Promise<platform.MetricPoint[]> {
    return this.platform.request({
      operation: "read database metrics",
      resource: databaseId,
      method: "GET",
      path: "/v2/databases/{databaseId}/metrics",
      params: { databaseId },
      schema: platform.Metrics,
    });
  }

  databaseSnapshots(databaseId: string): Promise<platform.SnapshotEntry[]> {
    return this.platform.request({
      operation: "list database snapshots",
      resource: databaseId,
      method: "GET",
      path: "/v2/databases/{databaseId}/snapshots",
      params: { databaseId },
      schema: platform.SnapshotList,
    });
  }

  /**
   * Overwrites the database's current data. `snapshotId` is the owning database's id (the
   * snapshot entry's `name`), `versionId` the entry's `versionId`. Paced to one per 60 s.
   */
  restoreDatabaseSnapshot(databaseId: string, snapshot: { snapshotId: string; versionId: string }): Promise<void> {
    return this.platform.request({
      operation: "restore database snapshot",
      resource: databaseId,
      method: "POST",
      path: "/v2/databases/{databaseId}/snapshots/restore",
      params: { databaseId },
      json: { snapshotId: snapshot.snapshotId, versionId: snapshot.versionId },
      gate: this.limits.restore(databaseId),
    });
  }

  // ---- workspaces

  listWorkspaces(): Promise<platform.Workspace[]> {
    return this.platform.request({
      operation: "list workspaces",
      method: "GET",
      path: "/v2/workspaces",
      schema: platform.WorkspaceList,
    });
  }

  getWorkspace(workspaceId: string): Promise<platform.Workspace> {
    return this.platform.request({
      operation: "get workspace",
      resource: workspaceId,
      method: "GET",
      path: "/v2/workspaces/{workspaceId}",
      params: { workspaceId },
      schema: platform.Workspace,
    });
  }

  createWorkspace(name: string): Promise<platform.CreatedWorkspace> {
    return this.platform.request({
      operation: "create workspace",
      resource: name,
      method: "POST",
      path: "/v2/workspaces",
      json: { name },
      schema: platform.CreatedWorkspace,
    });
  }

  /** Owner only; linked applications are kept. */
  deleteWorkspace(workspaceId: string): Promise<void> {
    return this.platform.request({
      operation: "delete workspace",
      resource: workspaceId,
      method: "DELETE",
      path: "/v2/workspaces",
      json: { workspaceId },
    });
  }

  /** An owner cannot leave (CANNOT_LEAVE_OWNER). */
  leaveWorkspace(workspaceId: string): Promise<void> {
    return this.platform.request({
      operation: "leave workspace",
      resource: workspaceId,
      method: "DELETE",
      path: "/v2/workspaces/leave",
      json: { workspaceId },
    });
  }

  /** The caller's own invite code: 32 hex characters, single use, valid 5 minutes. A secret. */
  async getInviteCode(): Promise<string> {
    const { code } = await this.platform.request({
      operation: "get invite code",
      method: "GET",
      path: "/v2/workspaces/members/code",
      schema: platform.InviteCode,
    });
    return code;
  }

  /**
   * Consumes the invitee's code. Only the caller can tell who joined since it last read the
   * members, so it settles a lost answer with `settle` (true: someone joined); without one, a lost
   * answer is an error with mayHaveCommitted set.
   */
  addWorkspaceMember(
    input: { workspaceId: string; code: string; group: platform.WorkspaceGroup },
    settle?: () => Promise<boolean>,
  ): Promise<void> {
    return this.platform.request({
      operation: "add workspace member",
      resource: input.workspaceId,
      method: "POST",
      path: "/v2/workspaces/members",
      json: { workspaceId: input.workspaceId, code: input.code, group: input.group },
      settle,
    });
  }

  updateWorkspaceMember(input: { workspaceId: string; memberId: string; group: platform.WorkspaceGroup }): Promise<void> {
    return this.platform.request({
      operation: "update workspace member",
      resource: `${input.workspaceId}/${input.memberId}`,
      method: "PATCH",
      path: "/v2/workspaces/members",
      json: { workspaceId: input.workspaceId, memberId: input.memberId, group: input.group },
    });
  }

  removeWorkspaceMember(input: { workspaceId: string; memberId: string }): Promise<void> {
    return this.platform.request({
      operation: "remove workspace member",
      resource: `${input.workspaceId}/${input.memberId}`,
      method: "DELETE",
      path: "/v2/workspaces/members",
      json: { workspaceId: input.workspaceId, memberId: input.memberId },
    });
  }

  /**
   * Owner only, for an application the caller owns. A lost answer is settled by reading the
   * workspace: linked means done; otherwise the link is sent again (a link exists once, so a late
   * first one makes the next answer APP_ALREADY_IN_WORKSPACE, never a duplicate).
   */
  linkApplication(input: { workspaceId: string; appId: string }): Promise<void> {
    return this.platform.request({
      operation: "link application to workspace",
      resource: `${input.workspaceId}/${input.appId}`,
      method: "POST",
      path: "/v2/workspaces/applications",
      json: { workspaceId: input.workspaceId, appId: input.appId },
      settle: async () => {
        const workspace = await this.getWorkspace(input.workspaceId);
        return workspace.applications.some((app) => app.id === input.appId);
      },
    });
  }

  unlinkApplication(input: { workspaceId: string; appId: string }): Promise<void> {
    return this.platform.request({
      operation: "unlink application from workspace",
      resource: `${input.workspaceId}/${input.appId}`,
      method: "DELETE",
      path: "/v2/workspaces/applications",
      json: { workspaceId: input.workspaceId, appId: input.appId },
    });
  }

  // ---- blob storage

  /** One page (up to 1000 objects). The server caches listings for 30 s. */
  listObjects(
    options: { prefix?: string; continuationToken?: string; serverTime?: (epochMs: number) => void } = {},
  ): Promise<blob.ObjectPage> {
    return this.blob.request({
      operation: "list objects",
      resource: options.prefix,
      method: "GET",
      path: "/v1/objects",
      query: { prefix: options.prefix, continuationToken: options.continuationToken },
      schema: blob.ObjectPage,
      serverTime: options.serverTime,
    });
  }

  /** Every page, in order; `serverTime` receives the server's clock at the first page. */
  async listAllObjects(prefix?: string, serverTime?: (epochMs: number) => void): Promise<blob.BlobObject[]> {
    const objects: blob.BlobObject[] = [];
    const seenTokens = new Set<string>();
    let continuationToken: string | undefined;
    do {
      const page = await this.listObjects({ prefix, continuationToken, serverTime: continuationToken === undefined ? serverTime : undefined });
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
  }

  /**
   * Not retried once it may have been sent (a retry would store a second object under a new
   * random id). At most 4 uploads per account are in flight; others wait their turn.
   */
  uploadObject(input: UploadObjectInput): Promise<blob.UploadedObject> {
    return this.blob.request({
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
      gate: this.limits.upload(),
      timeoutMs: this.uploadTimeoutMs,
      serverTime: input.serverTime,
    });
  }

  /** Permanent. A missing object gives 404 OBJECT_NOT_FOUND. */
  deleteObject(objectId: string): Promise<void> {
    return this.blob.request({
      operation: "delete object",
      resource: objectId,
      method: "DELETE",
      path: "/v1/objects",
      json: { object: objectId },
    });
  }

  /** Refreshed by the server once a minute. */
  accountStats(): Promise<blob.AccountStats> {
    return this.blob.request({
      operation: "read blob account stats",
      method: "GET",
      path: "/v1/account/stats",
      schema: blob.AccountStats,
    });
  }
}
