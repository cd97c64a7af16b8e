import { z } from "zod";
import { apiError } from "../errors";
import { readBody } from "../http/body";
import { boundaryOf, parseMultipart } from "../http/multipart";
import { success } from "../http/reply";
import type { Route } from "../http/router";
import type { ApiHandler } from "../http/server";
import { validateListPrefix, validateUploadOptions } from "../models/blob-objects";
import { UPLOAD_MAX_BYTES } from "../models/rules";
import { parseBody } from "./validate";

/** Room for the multipart framing around a maximum-size file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const deleteBody = z.object({ object: z.string().max(512) });

export const blobRoutes: Route<ApiHandler>[] = [
  {
    method: "GET",
    template: "/v1/objects",
    handler: ({ account, query }, models) => {
      const prefix = query.get("prefix") ?? undefined;
      validateListPrefix(prefix);
      models.blobObjects.purgeExpired();
      return success(models.blobObjects.list(account, prefix, query.get("continuationToken") ?? undefined));
    },
  },
  {
    method: "POST",
    template: "/v1/objects",
    handler: async ({ account, query, req, onDone }, models) => {
      // The slot is taken before the body is read: a slow upload counts as in flight throughout.
      onDone(models.blobObjects.beginUpload(account));
      const options = validateUploadOptions(query);
      const boundary = boundaryOf(req.headers["content-type"]);
      if (!boundary) throw apiError("INVALID_FILE");
      const body = await readBody(req, UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES, () => apiError("FILE_TOO_LARGE"));
      const part = parseMultipart(body, boundary)?.find((p) => p.name === "file");
      const file = part && { contentType: part.contentType ?? "application/octet-stream", data: part.data };
      return success(models.blobObjects.upload(account, options, file));
    },
  },
  {
    method: "DELETE",
    template: "/v1/objects",
    handler: async ({ account, json }, models) => {
      const { object } = parseBody(deleteBody, await json(), {}, "INVALID_OBJECT");
      models.blobObjects.purgeExpired();
      models.blobObjects.delete(account, object);
      return success();
    },
  },
  {
    method: "GET",
    template: "/v1/account/stats",
    handler: ({ account }, models) => {
      models.blobObjects.purgeExpired();
      return success(models.blobObjects.stats(account));
    },
  },
];
