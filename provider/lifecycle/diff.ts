import { isUnknown } from "../field-check";
import type { AnyKind, Change } from "../kinds/declaration";
import { stableJson } from "../stable-json";

/**
 * Every kind's diff, from its declaration: a replaceOn input that changed replaces, an updateOn
 * input that changed updates in place, any other input changes nothing. Inputs are compared as
 * data (key order carries no meaning), or by the kind's declared `changes` rule; an unknown value
 * counts as a change.
 */
export function declaredDiff(
  kind: AnyKind,
  olds: Record<string, any>,
  news: Record<string, any>,
): { changes: boolean; replaces: string[] } {
  const outcome = (input: string): Change => {
    const rule = kind.changes?.[input];
    if (rule) return rule(olds, news);
    if (!isUnknown(news[input]) && stableJson(olds[input]) === stableJson(news[input])) return "none";
    return kind.replaceOn.includes(input) ? "replace" : "inPlace";
  };
  const replaces = kind.replaceOn.filter((input: string) => outcome(input) === "replace");
  const inPlace = [...kind.replaceOn, ...kind.updateOn].some((input: string) => outcome(input) === "inPlace");
  return { changes: replaces.length > 0 || inPlace, replaces };
}
