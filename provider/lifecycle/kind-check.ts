import { type CheckFailure, checkFields, type FieldSchemas } from "../field-check";
import type { AnyKind } from "../kinds/declaration";
import { settingsFailures } from "./settings-check";

/** What a kind checks beyond its declared fields: rules across fields, or on the old state. */
export type KindRules = (input: {
  olds: Record<string, unknown>;
  news: Record<string, unknown>;
  /** The fields whose values are known and valid. */
  known: Record<string, unknown>;
}) => CheckFailure[] | { failures: CheckFailure[]; inputs: Record<string, unknown> };

/** Fields one by one (an unknown one hides no other mistake), then rules, then settings: no request for bad input. */
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
    if (failures.length === 0) failures.push(...(await settingsFailures(kind.apis)));
    return { inputs, failures };
  };
}
