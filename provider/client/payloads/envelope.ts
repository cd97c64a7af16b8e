import { z } from "zod";

/**
 * The envelope both APIs wrap every body in: `{status: "success", response?}`, or `{status: "error",
 * code, message?}`, whose code (not the HTTP status alone) says what failed.
 */

export const SuccessEnvelope = z.object({
  status: z.literal("success"),
  response: z.unknown().optional(),
});

export const ErrorEnvelope = z.object({
  status: z.literal("error"),
  // Lenient: an error without a readable code is still an error, reported by its HTTP status.
  code: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** A text field the APIs may omit or send as null: absent either way. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

/**
 * A schema that also reads each field under another name the service or an official client uses
 * for it (`createdAt` for `created_at`, the listing's `ram` for `memory`): the value sent under
 * the schema's own name wins, and one under the other name fills in when it is absent or null.
 */
export function alsoNamed<T extends z.ZodType>(schema: T, otherNames: Readonly<Record<string, string>>) {
  return z.preprocess((value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const fields: Record<string, unknown> = { ...value };
    for (const [name, other] of Object.entries(otherNames)) {
      if (fields[name] == null && fields[other] != null) fields[name] = fields[other];
    }
    return fields;
  }, schema);
}
