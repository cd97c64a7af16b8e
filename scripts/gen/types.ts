import type { z } from "zod";

/**
 * The TypeScript type a declared zod field stands for, as text for generated code and docs. Only
 * the zod types the declarations use are known; another one fails the generator rather than
 * printing a wrong type.
 */
export function typeText(schema: z.ZodType): string {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
    case "unknown":
      return def.type;
    case "enum":
      return Object.values(def.entries as Record<string, string>)
        .map((value) => JSON.stringify(value))
        .join(" | ");
    case "literal":
      return (def.values as unknown[]).map((value) => JSON.stringify(value)).join(" | ");
    case "optional":
    case "default":
      return typeText(def.innerType as z.ZodType);
    case "array":
      return `${grouped(typeText(def.element as z.ZodType))}[]`;
    case "tuple":
      return `[${(def.items as z.ZodType[]).map(typeText).join(", ")}]`;
    case "record":
      return `Record<${typeText(def.keyType as z.ZodType)}, ${typeText(def.valueType as z.ZodType)}>`;
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.entries(shape).map(
        ([name, field]) => `${name}${isOptional(field) ? "?" : ""}: ${typeText(field)}`,
      );
      return `{ ${fields.join("; ")} }`;
    }
    default:
      throw new Error(`no TypeScript type is known for the zod type "${def.type}"`);
  }
}

export function isOptional(schema: z.ZodType): boolean {
  const type = (schema._zod.def as { type: string }).type;
  return type === "optional" || type === "default";
}

/** The element type of an array field, when the field is one (its items may be Inputs in Args). */
export function arrayItem(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as unknown as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === "optional") return arrayItem(def.innerType as z.ZodType);
  return def.type === "array" ? def.element : undefined;
}

/** A union in parentheses, so that `[]` applies to the whole of it. */
export function grouped(type: string): string {
  return type.includes(" | ") ? `(${type})` : type;
}
