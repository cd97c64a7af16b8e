import type { AnyKind } from "../../provider/kinds/declaration";

/**
 * What the Pulumi Registry shows on a resource's page beyond the kind's description, composed
 * from what exists already: the example programs of the kind's docs page (docs/resources/<page>.md,
 * the blocks marked `<!-- program: ... -->`, each run by the docs' tests) in the registry's
 * example shortcodes, and an `## Import` section from the kind's `import` note.
 */

/** The registry's name of each docs language. */
const LANGUAGES: Record<string, string> = { ts: "typescript", yaml: "yaml", python: "python", go: "go", java: "java" };

/** The program blocks of a docs page, `{ language, code }` in page order, in the registry's language names. */
export function pageExamples(markdown: string): { language: string; code: string }[] {
  const examples: { language: string; code: string }[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    const fence = /^```(\w+)$/.exec(lines[i + 1]);
    if (!/^<!-- program: [\w-]+ -->$/.test(lines[i]) || fence === null || LANGUAGES[fence[1]] === undefined) continue;
    const end = lines.indexOf("```", i + 2);
    examples.push({ language: LANGUAGES[fence[1]], code: lines.slice(i + 2, end).join("\n") });
  }
  return examples;
}

/** The description of a kind's resource on the registry: its own, its example, and how to import one. */
export function registryDescription(kind: AnyKind, examples: readonly { language: string; code: string }[]): string {
  const parts = [kind.description];
  if (examples.length > 0) {
    const programs = examples.map((example) => `\`\`\`${example.language}\n${example.code}\n\`\`\``).join("\n");
    parts.push(
      `{{% examples %}}\n## Example Usage\n\n{{% example %}}\n### A ${kind.name}\n\n${programs}\n{{% /example %}}\n{{% /examples %}}`,
    );
  }
  parts.push(`## Import\n\n${importSection(kind)}`);
  return parts.join("\n\n");
}

function importSection(kind: AnyKind): string {
  const note = kind.import;
  if ("refused" in note) return `\`pulumi import\` refuses a ${kind.name}: ${note.refused}. Instead, ${note.instead}.`;
  const leavesOut = note.leavesOut ? ` It leaves out ${note.leavesOut}.` : "";
  return `\`pulumi import\` reads a ${kind.name} by its id and brings into state: ${note.brings}.${leavesOut} ${whoCanImport(kind)}\n\n\`\`\`sh\n$ pulumi import squarecloud:index:${kind.name} <name> <id>\n\`\`\``;
}

/**
 * Which programs can use the import: the native plugin serves YAML, Python, Go and Java; the
 * TypeScript classes are dynamic resources, which the engine never imports (pulumi/pulumi#16175).
 */
function whoCanImport(kind: AnyKind): string {
  const typescript = kind.adoption
    ? `there, declare it with \`adoptId\` set to its id: the next \`pulumi up\` takes it over`
    : "a TypeScript program cannot take over an existing one";
  return `Programs in YAML, Python, Go and Java can import it. A TypeScript program's ${kind.name} is a dynamic resource, which the engine cannot import: ${typescript}.`;
}
