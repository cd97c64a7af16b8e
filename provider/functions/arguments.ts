import { z } from "zod";
import { checkFields, type FieldSchemas } from "../field-check";
import { AnalyticsRange, ApiId, SnapshotScope } from "../client/payloads/platform";
import { objectName } from "../kinds/blob-object";

/** Checks a data source's arguments before any request: the message names the function, argument, rule and value. */
export function checkArguments(dataSource: string, fields: FieldSchemas, args: object): void {
  const { failures } = checkFields(fields, args as Record<string, unknown>);
  if (failures.length > 0) {
    throw new Error(`${dataSource}: ${failures.map(({ property, reason }) => `${property} ${reason}`).join("; ")}`);
  }
}

const text = z.string({ error: "must be a string" });
/** A date and a time with its zone: what the API's own timestamps look like. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export const ARGUMENTS = {
  id: ApiId,
  optionalId: ApiId.optional(),
  optionalText: text.optional(),
  range: z.enum(AnalyticsRange.options, { error: 'must be "daily" or "weekly"' }).optional(),
  time: text
    .refine((value) => ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)), {
      error: 'must be an ISO 8601 time such as "2026-05-01T12:00:00Z"',
    })
    .optional(),
  scope: z.enum(SnapshotScope.options, { error: 'must be "applications" or "databases"' }).optional(),
  prefix: objectName.optional(),
} as const;
