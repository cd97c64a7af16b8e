import { z } from "zod";
import { apiError } from "../errors";
import { success } from "../http/reply";
import type { Route } from "../http/router";
import type { ApiHandler } from "../http/server";
import {
  DATABASE_NAME_PATTERN,
  DATABASE_TYPES,
  DATABASE_VERSION_PATTERN,
  ID_PATTERN,
  UUID_PATTERN,
} from "../models/rules";
import { parseBody } from "./validate";

// No maximum of its own (the reference states none): the plan's available memory bounds it.
const memory = z.number().int().positive();

// Field order is the order rules are reported in (see parseBody).
const createBody = z.object({
  name: z.string().regex(DATABASE_NAME_PATTERN),
  memory,
  type: z.enum(DATABASE_TYPES),
  version: z.string().regex(DATABASE_VERSION_PATTERN),
});
const updateBody = z.object({ name: z.string().regex(DATABASE_NAME_PATTERN).optional(), ram: memory.optional() });
/** The code each field's rule answers with, in the creation and the update alike. */
const fieldCodes = {
  name: "INVALID_NAME",
  memory: "INVALID_MEMORY",
  ram: "INVALID_MEMORY",
  type: "INVALID_DATABASE_TYPE",
  version: "INVALID_DATABASE_VERSION",
} as const;
const resetBody = z.object({ reset: z.enum(["password", "certificate"]) });
const restoreBody = z.object({ snapshotId: z.string().regex(ID_PATTERN), versionId: z.string().regex(UUID_PATTERN) });

export const databaseRoutes: Route<ApiHandler>[] = [
  {
    method: "POST",
    template: "/v2/databases",
    handler: async ({ account, json }, models) =>
      success(models.databases.create(account, parseBody(createBody, await json(), fieldCodes))),
  },
  {
    method: "GET",
    template: "/v2/databases/:id",
    handler: ({ account, params }, models) =>
      success(models.databases.detailView(models.databases.ownedBy(account, params.id))),
  },
  {
    method: "PATCH",
    template: "/v2/databases/:id",
    handler: async ({ account, params, json }, models) => {
      const database = models.databases.ownedBy(account, params.id);
      const raw = await json();
      if (Object.keys(updateBody.shape).every((field) => raw[field] === undefined)) throw apiError("NO_UPDATE_DATA");
      models.databases.update(account, database, parseBody(updateBody, raw, fieldCodes));
      return success();
    },
  },
  {
    method: "DELETE",
    template: "/v2/databases/:id",
    handler: ({ account, params }, models) => {
      models.databases.delete(models.databases.ownedBy(account, params.id));
      return success();
    },
  },
  {
    method: "GET",
    template: "/v2/databases/:id/metrics",
    handler: ({ account, params }, models) =>
      success(models.databases.metrics(models.databases.ownedBy(account, params.id))),
  },
  {
    method: "GET",
    template: "/v2/databases/:id/credentials/certificate",
    handler: ({ account, params }, models) =>
      success({ certificate: models.databases.certificate(models.databases.ownedBy(account, params.id)) }),
  },
  {
    method: "POST",
    template: "/v2/databases/:id/credentials/reset",
    handler: async ({ account, params, json }, models) => {
      const database = models.databases.ownedBy(account, params.id);
      const { reset } = parseBody(resetBody, await json(), { reset: "INVALID_RESET" });
      if (reset === "password") return success({ password: models.databases.resetPassword(database) });
      models.databases.resetCertificate(database);
      return success();
    },
  },
  {
    method: "GET",
    template: "/v2/databases/:id/snapshots",
    handler: ({ account, params }, models) =>
      success(models.snapshots.forDatabase(models.databases.ownedBy(account, params.id).id)),
  },
  {
    method: "POST",
    template: "/v2/databases/:id/snapshots/restore",
    handler: async ({ account, params, json }, models) => {
      const database = models.databases.ownedBy(account, params.id);
      const body = parseBody(restoreBody, await json(), {
        snapshotId: "INVALID_SNAPSHOT_ID",
        versionId: "INVALID_VERSION_ID",
      });
      models.databases.restore(database, body.snapshotId, body.versionId);
      return success();
    },
  },
];
