/** Keys sorted, so two values equal as data give the same text whatever order they were written in. */
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
