import { z } from "zod";
import { apiError } from "../errors";
import { readBody } from "../http/body";
import { boundaryOf, parseMultipart } from "../http/multipart";
import { success } from "../http/reply";
import type { Route } from "../http/router";
import { type ApiHandler, type PublicRoute, selfUrl } from "../http/server";
import { validateListPrefix, validateUploadOptions } from "../models/blob-objects";
import { PUBLIC_CONTENT_PATH, UPLOAD_MAX_BYTES } from "../models/rules";
import { parseBody } from "./validate";

/** A maximum-size file with room for the multipart framing around it. */
const UPLOAD_BODY_LIMIT_BYTES = UPLOAD_MAX_BYTES + 64 * 1024;

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
    bodyLimitBytes: UPLOAD_BODY_LIMIT_BYTES,
    handler: async ({ account, query, req, onDone }, models) => {
      // The slot is taken before the body is read: a slow upload counts as in flight throughout.
      onDone(models.blobObjects.beginUpload(account));
      const options = validateUploadOptions(query);
      const boundary = boundaryOf(req.headers["content-type"]);
      if (!boundary) throw apiError("INVALID_FILE");
      const body = await readBody(req, UPLOAD_BODY_LIMIT_BYTES, () => apiError("FILE_TOO_LARGE"));
      const part = parseMultipart(body, boundary)?.find((p) => p.name === "file");
      const file = part && { contentType: part.contentType ?? "application/octet-stream", data: part.data };
      models.blobObjects.purgeExpired();
      return success(models.blobObjects.upload(account, options, file, selfUrl(req, PUBLIC_CONTENT_PATH)));
    },
  },
  {
    method: "DELETE",
    template: "/v1/objects",
    // Both official blob clients send this JSON body as a plain string, so without application/json.
    jsonContentType: "any",
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

/** The local CDN: GET <blob URL>/public/<id> answers the object's bytes with its MIME type. */
export const publicContentRoutes: PublicRoute[] = [
  {
    prefix: PUBLIC_CONTENT_PATH,
    handler: (objectId, core) => {
      // A fetch changes nothing else: the state is saved only when objects expired.
      if (core.models.blobObjects.purgeExpired()) core.persist();
      const { record, data } = core.models.blobObjects.publicContent(objectId);
      const fileName = objectId.slice(objectId.lastIndexOf("/") + 1);
      return {
        body: data,
        headers: {
          "Content-Type": record.contentType,
          // auto_download asks the CDN to make browsers save the file instead of showing it.
          ...(record.autoDownload ? { "Content-Disposition": `attachment; filename="${fileName}"` } : {}),
        },
      };
    },
  },
];
