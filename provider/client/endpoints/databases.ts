import { z } from "zod";
import { refusedLocally } from "../errors";
import type { HttpClient } from "../http";
import type { AccountLimits } from "../pacing";
import type { Settle, Settled } from "../retry";
import * as platform from "../payloads/platform";
import { readById } from "./reads";

/** /v2/databases of the platform API, plus the account's list of databases. */

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

/** Only the databases of /v2/users/me: a listing must not fail on the rest of the account. */
const AccountDatabases = z.object({ databases: z.array(platform.DatabaseSummary).default([]) });

/** Provisioning can outlast an ordinary request; giving up early leaves an outcome to reconcile. */
const DATABASE_CREATE_TIMEOUT_MS = 120_000;

export function databaseEndpoints(api: HttpClient, limits: AccountLimits) {
  return {
    /** The only response that shows the password. Sent again after a lost answer only as `settle` allows. */
    createDatabase<F = never>(
      input: CreateDatabaseInput,
      settle?: Settle<F>,
    ): Promise<Settled<platform.CreatedDatabase, F>> {
      return api.request(
        {
          operation: "create database",
          resource: input.name,
          method: "POST",
          path: "/v2/databases",
          json: { name: input.name, memory: input.memory, type: input.type, version: input.version },
          schema: platform.CreatedDatabase,
          timeoutMs: DATABASE_CREATE_TIMEOUT_MS,
        },
        settle,
      );
    },

    getDatabase: readById(api, "get database", "/v2/databases/{databaseId}", platform.DatabaseDetails),

    /** The account's databases, from /v2/users/me; credentials are never part of the result. */
    async listDatabases(): Promise<platform.DatabaseSummary[]> {
      const account = await api.request({
        operation: "list databases",
        method: "GET",
        path: "/v2/users/me",
        schema: AccountDatabases,
      });
      return account.databases;
    },

    /** Refuses an empty change locally: the API answers NO_UPDATE_DATA to it. */
    updateDatabase(databaseId: string, change: UpdateDatabaseInput): Promise<void> {
      const context = {
        operation: "update database",
        resource: databaseId,
        method: "PATCH",
        path: "/v2/databases/{databaseId}",
      } as const;
      if (Object.values(change).every((value) => value === undefined)) {
        return Promise.reject(refusedLocally(context, "NO_UPDATE_DATA", "nothing to change: give name or ram"));
      }
      return api.request({ ...context, params: { databaseId }, json: change });
    },

    deleteDatabase(databaseId: string): Promise<void> {
      return api.request({
        operation: "delete database",
        resource: databaseId,
        method: "DELETE",
        path: "/v2/databases/{databaseId}",
        params: { databaseId },
      });
    },

    /** Base64 PEM text; fails with DATABASE_NOT_RUNNING while the database is stopped. */
    async getDatabaseCertificate(databaseId: string): Promise<string> {
      const { certificate } = await api.request({
        operation: "get database certificate",
        resource: databaseId,
        method: "GET",
        path: "/v2/databases/{databaseId}/credentials/certificate",
        params: { databaseId },
        schema: platform.DatabaseCertificate,
      });
      return certificate;
    },

    /** Invalidates the old password and returns the new one, shown once. */
    resetDatabaseCredentials(databaseId: string, kind: "password"): Promise<{ password: string }> {
      return api.request({
        operation: `reset database ${kind}`,
        resource: databaseId,
        method: "POST",
        path: "/v2/databases/{databaseId}/credentials/reset",
        params: { databaseId },
        json: { reset: kind },
        schema: platform.PasswordReset,
      });
    },

    /** Most recent first, one point per 5 minutes. */
    databaseMetrics: readById(api, "read database metrics", "/v2/databases/{databaseId}/metrics", platform.Metrics),

    databaseSnapshots: readById(
      api,
      "list database snapshots",
      "/v2/databases/{databaseId}/snapshots",
      platform.SnapshotList,
    ),

    /** Overwrites the current data. `snapshotId` is the snapshot entry's `name` (the database's id). */
    restoreDatabaseSnapshot(databaseId: string, snapshot: { snapshotId: string; versionId: string }): Promise<void> {
      return api.request({
        operation: "restore database snapshot",
        resource: databaseId,
        method: "POST",
        path: "/v2/databases/{databaseId}/snapshots/restore",
        params: { databaseId },
        json: { snapshotId: snapshot.snapshotId, versionId: snapshot.versionId },
        gate: limits.restore(databaseId),
      });
    },
  };
}
