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
