import { isUnknown } from "../field-check";
import type { AnyKind, Change } from "../kinds/declaration";
import { stableJson } from "../stable-json";

/** Every kind's diff, from its declaration; inputs compare as data (key order aside), unknowns as changed. */
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
