import type { z } from "zod";
import { apiError, type ErrorCode } from "../errors";

/**
 * Parses a request body with a zod schema and turns the first failing field into that field's
 * error code (INVALID_NAME, INVALID_MEMORY, ...). Field order in the schema is therefore the
 * order in which rules are reported.
 */
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
