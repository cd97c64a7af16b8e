import { z } from "zod";
import { ApiId } from "../client/payloads/platform";
import { declareKind, field, type InputsOf, operationImport, type OutputsOf } from "./declaration";

/** The API's own bound on paths inside an application is not published; this one stops absurd values. */
export const MAX_APP_PATH_LENGTH = 512;

/** Relative to the application root: "/", ".." or an empty segment would name something else. */
const appPath = z
  .string({ error: "must be a string" })
  .min(1, { error: "must not be empty" })
  .max(MAX_APP_PATH_LENGTH, { error: `must be at most ${MAX_APP_PATH_LENGTH} characters` })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: paths with control characters are what the rule rejects
  .refine((path) => !/[\u0000-\u001f\u007f\\]/.test(path), {
    error: "must not contain control characters or backslashes",
  })
  .refine((path) => !path.startsWith("/"), { error: 'must be relative to the application root (no leading "/")' })
  .refine((path) => !path.endsWith("/"), { error: 'must name a file, not end with "/"' })
  .refine((path) => !path.split("/").some((segment) => segment === ".." || segment === "." || segment === ""), {
    error: 'must not contain ".", ".." or empty segments',
  });

export const appFileMove = declareKind({
  name: "AppFileMove",
  kind: "appFileMove",
  description: `Moves or renames one file of an application, once: \`path\` and \`to\` are relative to the
application root, and the same directory with another name is a rename. The destination's
directory must exist. A change of any input moves again, from \`path\`: once moved, the file is at
the previous \`to\`, so to move it further set \`path\` to that. Removing the resource does not move
the file back. A move whose response was lost is sent once more on purpose: if the first one
moved the file, the second finds nothing at \`path\` and the move is recorded as done.`,
  inputs: {
    appId: field(ApiId, "The application."),
    path: field(appPath, "The file's current path, relative to the application root."),
    to: field(appPath, "Its new path; the same directory with another name is a rename."),
  },
  outputs: {
    movedAt: field(z.string(), "ISO 8601 UTC time the move was done."),
  },
  replaceOn: ["appId", "path", "to"],
  apis: ["platform"],
  import: operationImport("a move made once", "an AppFileMove to move a file"),
});

export type AppFileMoveInputs = InputsOf<typeof appFileMove>;
export type AppFileMoveOutputs = OutputsOf<typeof appFileMove>;
