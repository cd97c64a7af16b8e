import { typeToken } from "../../provider/tokens";
import type { z } from "zod";
import type { AnyFunction } from "../../provider/functions/declaration";
import { type AnyKind, type ComponentDeclaration, notesOf, outputNames } from "../../provider/kinds/declaration";
import { isOptional, typeText } from "./types";

/**
 * The inputs and outputs tables of a kind's docs page. Pages hold them between markers
 * (`<!-- generated: inputs of Database -->` ... `<!-- end generated -->`); `fill` rewrites what
 * stands between, so the prose around them stays the writer's.
 */
export function tables(kind: AnyKind): Record<string, string> {
  return { [`inputs of ${kind.name}`]: inputsTable(kind), [`outputs of ${kind.name}`]: outputsTable(kind) };
}

/**
 * A kind's inputs in every language. The TypeScript class differs from the schema the other four
 * languages are generated from: its SDK-only arguments (`sdkArgs`) exist there alone, the fields it
 * derives from them (`sdkDerived`) exist everywhere else alone, and a field it can fill from them
 * (`sdkOptional`) is optional there while the schema requires it.
 */
function inputsTable(kind: AnyKind): string {
  const fields = [
    ...Object.entries(kind.inputs as Record<string, z.ZodType>),
    ...Object.entries((kind.sdkArgs ?? {}) as Record<string, z.ZodType>).map(
      ([name, schema]) => [name, schema, "TypeScript"] as const,
    ),
  ] as [string, z.ZodType, string?][];
  const rows = fields.map(([name, schema, sdkOnly]) => {
    const notes = notesOf(schema);
    const only = sdkOnly ?? (notes.sdkDerived ? NATIVE_LANGUAGES : undefined);
    const secret = kind.secretInputs.includes(name) ? " (secret)" : "";
    return row([
      only ? `${code(name)} (${only} only)` : code(name),
      code(notes.sdkType ?? typeText(schema)),
      required(schema, notes.sdkOptional ? Object.keys(kind.sdkArgs ?? {}) : []),
      onChange(kind, name),
      cell(notes.description) + secret,
    ]);
  });
  return [
    row(["Input", "Type", "Required", "On change", "Description"]),
    row(["---", "---", "---", "---", "---"]),
    ...rows,
  ].join("\n");
}

/** The languages generated from the schema: those the native plugin serves. */
const NATIVE_LANGUAGES = "YAML, Python, Go, Java";

/**
 * Whether an input must be given: in the schema's languages as zod says; in TypeScript too, unless
 * the class can fill it from its own arguments `fillers`.
 */
function required(schema: z.ZodType, fillers: string[]): string {
  if (isOptional(schema)) return "no";
  if (fillers.length === 0) return "yes";
  return `yes (in TypeScript, not when ${fillers.map(code).join(" or ")} is given)`;
}

function outputsTable(kind: AnyKind): string {
  const fields = { ...kind.inputs, ...kind.outputs } as Record<string, z.ZodType>;
  const rows = outputNames(kind).map((name) => {
    const schema = fields[name];
    const secret = kind.secretOutputs.includes(name) ? "yes" : "no";
    return row([
      code(name),
      code(notesOf(schema).sdkType ?? typeText(schema)),
      secret,
      cell(notesOf(schema).description),
    ]);
  });
  return [row(["Output", "Type", "Secret", "Description"]), row(["---", "---", "---", "---"]), ...rows].join("\n");
}

/**
 * The inputs and outputs tables of a component's page. A component has no replace or secret
 * flags of its own: its children, resources of a kind, carry theirs (see the kind's page).
 */
export function componentTables(component: ComponentDeclaration): Record<string, string> {
  const fields = (side: Record<string, z.ZodType>) =>
    Object.entries(side).map(([name, schema]) => ({ name, schema, notes: notesOf(schema) }));
  const inputs = fields(component.inputs as Record<string, z.ZodType>).map(({ name, schema, notes }) =>
    row([
      code(name),
      code(notes.sdkType ?? typeText(schema)),
      isOptional(schema) ? "no" : "yes",
      cell(notes.description),
    ]),
  );
  const outputs = fields(component.outputs as Record<string, z.ZodType>).map(({ name, schema, notes }) =>
    row([code(name), code(notes.sdkType ?? typeText(schema)), cell(notes.description)]),
  );
  return {
    [`inputs of ${component.name}`]: [
      row(["Input", "Type", "Required", "Description"]),
      row(["---", "---", "---", "---"]),
      ...inputs,
    ].join("\n"),
    [`outputs of ${component.name}`]: [
      row(["Output", "Type", "Description"]),
      row(["---", "---", "---"]),
      ...outputs,
    ].join("\n"),
  };
}

/** The token table of the data sources page: what YAML's `fn::invoke` names, and what each takes (`?`: optional). */
export function functionsTable(functions: readonly AnyFunction[]): Record<string, string> {
  const rows = functions.map((fn) => {
    const args = Object.entries(fn.args as Record<string, z.ZodType>).map(([name, schema]) =>
      code(isOptional(schema) ? `${name}?` : name),
    );
    return row([code(typeToken(fn.name)), args.join(", ") || "none", cell(fn.description)]);
  });
  return { functions: [row(["Token", "Arguments", "What it reads"]), row(["---", "---", "---"]), ...rows].join("\n") };
}

/**
 * The import table of docs/native.md: per kind, what `pulumi import` brings into state and what it
 * leaves out, or why it is refused and what to do instead (each kind's `import` note).
 */
export function importTable(kinds: readonly AnyKind[]): Record<string, string> {
  const rows = kinds.map((kind) => {
    const note = kind.import;
    const [brought, notBrought] =
      "refused" in note
        ? [`nothing (refused): ${note.refused}`, `instead, ${note.instead}`]
        : [note.brings, note.leavesOut ?? ""];
    return row([kind.name, cell(brought), cell(notBrought)]);
  });
  return {
    import: [
      row(["Kind", "Brought into state", "Not brought, or what to do instead"]),
      row(["---", "---", "---"]),
      ...rows,
    ].join("\n"),
  };
}

function onChange(kind: AnyKind, input: string): string {
  if (kind.replaceOn.includes(input)) return "replaces";
  if (kind.updateOn.includes(input)) return "updates in place";
  return "nothing";
}

/** The page with every marked table replaced by the current one; unknown markers fail. */
export function fill(page: string, generated: Record<string, string>, file: string): string {
  return page.replace(
    /(<!-- generated: (.+?) -->\n)[\s\S]*?(<!-- end generated -->)/g,
    (_match, open: string, name: string, close: string) => {
      const table = generated[name];
      if (table === undefined) throw new Error(`${file}: no generated table is named "${name}"`);
      return `${open}${table}\n${close}`;
    },
  );
}

const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
const code = (text: string) => `\`${text.replace(/\|/g, "\\|")}\``;
const cell = (text: string) => text.replace(/\n/g, " ").replace(/\|/g, "\\|");
