import type { z } from "zod";

/** The engine prefixes each failure with the resource and property, so a reason states the rule and the value. */

/** How the engine marks a value that is not known yet (preview of a value computed by `up`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface CheckFailure {
  property: string;
  reason: string;
}

export type FieldSchemas = Record<string, z.ZodType>;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** Each field on its own, so an unknown value in one hides no mistake in another. */
export function checkFields(
  fields: FieldSchemas,
  news: Record<string, unknown>,
  secrets: readonly string[] = [],
): { failures: CheckFailure[]; known: Record<string, unknown> } {
  const failures: CheckFailure[] = [];
  const known: Record<string, unknown> = {};
  for (const [property, schema] of Object.entries(fields)) {
    const value = news[property];
    if (isUnknown(value)) continue;
    const result = schema.safeParse(value);
    if (result.success) {
      if (result.data !== undefined) known[property] = result.data;
      continue;
    }
    const rule = value === undefined ? "is required" : result.error.issues[0].message;
    failures.push(
      secrets.includes(property) ? secretFailure(property, rule, value) : { property, reason: describe(rule, value) },
    );
  }
  return { failures, known };
}

/** Against the resource, not the property: the engine prints a failed property's value, a secret's in plaintext. */
function secretFailure(property: string, rule: string, value: unknown): CheckFailure {
  return { property: "", reason: `${property} ${describe(rule, value, true)}` };
}

/** "<rule>, got <value>"; for a secret only its kind and length, enough to spot a truncated paste. */
export function describe(rule: string, value: unknown, secret = false): string {
  if (value === undefined) return rule;
  if (secret)
    return `${rule}, got ${typeof value === "string" ? `${value.length} characters` : "a value that is not a string"} (hidden: a secret)`;
  return `${rule}, got ${JSON.stringify(value)}`;
}
