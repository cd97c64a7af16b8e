import { z } from "zod";
import { type CheckFailure, checkFields, type FieldSchemas, isUnknown } from "../field-check";
import type { AnyKind } from "../kinds/declaration";
import { stableJson } from "../stable-json";
import { declaredDiff } from "./diff";
import { settingsFailures } from "./settings-check";

/** What a kind checks beyond its declared fields: rules across fields, or on the old state. */
export type KindRules = (input: {
  olds: Record<string, unknown>;
  news: Record<string, unknown>;
  /** The fields whose values are known and valid. */
  known: Record<string, unknown>;
}) => CheckFailure[] | { failures: CheckFailure[]; inputs: Record<string, unknown> };

/**
 * Fields one by one (an unknown one hides no other mistake), then rules, then settings: no request for bad input.
 * The rules are the spec's for what the provider sends: a value the object already has (imported, or read by
 * a refresh) passes as it is, since the service may hold what its spec would refuse at create.
 */
export function checkKind(kind: AnyKind, rules?: KindRules, options: { ruledFields?: readonly string[] } = {}) {
  // Fields whose whole rule the kind's rules state, with a message the declared one cannot give.
  const declared: FieldSchemas = Object.fromEntries(
    Object.entries(kind.inputs as FieldSchemas).filter(([name]) => !options.ruledFields?.includes(name)),
  );
  return async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const { failures, known } = checkFields(declared, news, kind.secretInputs);
    const own = rules?.({ olds, news, known }) ?? [];
    const [ownFailures, inputs] = Array.isArray(own) ? [own, news] : [own.failures, own.inputs];
    failures.push(...ownFailures);
    const held = heldAsIs(kind, olds, news);
    const refused = failures.filter((failure) => !held.has(failure.property));
    if (refused.length === 0) refused.push(...(await settingsFailures(kind.apis)));
    return { inputs, failures: refused };
  };
}

/**
 * The free-form inputs (names, sizes) whose value is the one the object already has, when nothing
 * replaces it: no request will send them to a create or a change. None for a new object. A closed
 * set of values (an engine, a group) stays checked: the provider manages only the values it names.
 */
function heldAsIs(kind: AnyKind, olds: Record<string, unknown>, news: Record<string, unknown>): Set<string> {
  if (Object.keys(olds).length === 0 || declaredDiff(kind, olds, news).replaces.length > 0) return new Set();
  return new Set(
    Object.entries(kind.inputs as FieldSchemas)
      .filter(([name, schema]) => {
        const value = news[name];
        return (
          !isClosedSet(schema) &&
          value !== undefined &&
          !isUnknown(value) &&
          stableJson(value) === stableJson(olds[name])
        );
      })
      .map(([name]) => name),
  );
}

function isClosedSet(schema: z.ZodType): boolean {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault)
    inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodEnum || inner instanceof z.ZodLiteral;
}
