import { z } from "zod";
import { ApiId } from "../client/payloads/platform";

/** The AppFileMove operation's inputs: the single source of its validation rules and its types. */

/** The API's own bound on paths inside an application is not published; this one stops absurd values. */
export const MAX_APP_PATH_LENGTH = 512;

/**
 * A file path relative to the application root: the API resolves paths from there, so a leading
 * "/", a ".." segment or an empty segment would name something else than the program says.
 */
const appPath = z
  .string({ error: "must be a string" })
  .min(1, { error: "must not be empty" })
  .max(MAX_APP_PATH_LENGTH, { error: `must be at most ${MAX_APP_PATH_LENGTH} characters` })
  .refine((path) => !/[\u0000-\u001f\u007f\\]/.test(path), { error: "must not contain control characters or backslashes" })
  .refine((path) => !path.startsWith("/"), { error: 'must be relative to the application root (no leading "/")' })
  .refine((path) => !path.endsWith("/"), { error: 'must name a file, not end with "/"' })
  .refine((path) => !path.split("/").some((segment) => segment === ".." || segment === "." || segment === ""), {
    error: 'must not contain ".", ".." or empty segments',
  });

export const appFileMoveInputFields = {
  appId: ApiId,
  /** The file's current path. */
  path: appPath,
  /** Its new path; the same directory with another name is a rename. */
  to: appPath,
};

export type AppFileMoveInputs = z.infer<z.ZodObject<typeof appFileMoveInputFields>>;

export interface AppFileMoveOutputs extends AppFileMoveInputs {
  /** ISO 8601 UTC time the move was done. */
  movedAt: string;
}
