import { readFileSync } from "node:fs";
import * as path from "node:path";
import { kinds } from "../../../provider/kinds";
import { repoRoot } from "../../install-script";

// What the Pulumi Registry renders of each resource, from the schema: the kind's description, the
// example programs of its docs page in the registry's example shortcodes, and an Import section.

const schema = JSON.parse(readFileSync(path.join(repoRoot, "provider", "plugin", "schema.json"), "utf8")) as {
  resources: Record<string, { description: string }>;
  [field: string]: unknown;
};

test("the package names its publisher, homepage, repository, logo, license and keywords", () => {
  expect(schema).toMatchObject({
    displayName: "Square Cloud",
    publisher: "Square Cloud",
    homepage: "https://github.com/squarecloud/pulumi-squarecloud",
    repository: "https://github.com/squarecloud/pulumi-squarecloud",
    logoUrl: "https://raw.githubusercontent.com/squarecloud/pulumi-squarecloud/main/docs/logo.svg",
    license: "Apache-2.0",
    keywords: expect.arrayContaining(["pulumi", "squarecloud", "category/cloud"]),
  });
});

test.each(kinds.map((kind) => [kind.name, kind] as const))(
  "%s's description starts with the kind's own and ends with how to import one",
  (name, kind) => {
    const description = schema.resources[`squarecloud:index:${name}`].description;
    expect(description.startsWith(kind.description)).toBe(true);
    const importSection = description.slice(description.lastIndexOf("## Import\n"));
    if ("refused" in kind.import)
      expect(importSection).toContain(`\`pulumi import\` refuses a ${name}: ${kind.import.refused}`);
    else {
      expect(importSection).toContain(`$ pulumi import squarecloud:index:${name} <name> <id>`);
      // Which programs can use it: the dynamic classes of TypeScript cannot, whatever the kind.
      expect(importSection).toContain("Programs in YAML, Python, Go and Java can import it.");
      expect(importSection).toContain(
        kind.adoption ? "declare it with `adoptId` set to its id" : "cannot take over an existing one",
      );
    }
  },
);

test("a kind's example is its docs page's programs, each language in a fence the registry renders as a tab", () => {
  const description = schema.resources["squarecloud:index:Database"].description;
  const example = /\{\{% example %\}\}\n([\s\S]*?)\{\{% \/example %\}\}/.exec(description)?.[1] ?? "";
  expect([...example.matchAll(/^```(\w+)$/gm)].map((fence) => fence[1])).toEqual([
    "typescript",
    "yaml",
    "python",
    "go",
    "java",
  ]);
  expect(example).toContain('new sq.Database("sessions", {');
  expect(example).toContain('squarecloud.Database("sessions",');
  expect(example).toContain('sq.NewDatabase(ctx, "sessions", args)');
  expect(example).toContain('new Database("sessions", sessionsArgs.build())');
});
