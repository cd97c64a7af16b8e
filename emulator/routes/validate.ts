import type { z } from "zod";
import { apiError, type ErrorCode } from "../errors";

/** The first failing field gives its error code, so the schema's field order is the order rules report in. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  codes: Partial<Record<string, ErrorCode>>,
  fallback: ErrorCode = "INVALID_BODY",
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path[0];
  throw apiError((typeof field === "string" ? codes[field] : undefined) ?? fallback);
}
