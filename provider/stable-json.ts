/**
 * JSON of a value with every object's keys in sorted order, so two values equal as data give the
 * same text whatever order their properties were written in (undefined properties are left out,
 * as JSON does). Used to compare inputs such as an operation's `trigger`, to key memoized reads,
 * and (indented) to write generated JSON files that change only when their data does.
 */
export function stableJson(value: unknown, indent?: number): string | undefined {
  return JSON.stringify(
    value,
    (_key, v: unknown) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((key) => [key, (v as Record<string, unknown>)[key]]),
          )
        : v,
    indent,
  );
}
