import { readFileSync } from "node:fs";
import * as path from "node:path";
import { kinds } from "../../../provider/kinds";
import { databaseRestore } from "../../../provider/kinds/database-restore";
import { SCHEMA_FILE } from "../../../scripts/gen";
import { tables } from "../../../scripts/gen/docs";
import type { PackageSchema } from "../../../scripts/gen/schema";
import { typeToken } from "../../../provider/tokens";
import { repoRoot } from "../../install-script";

// The inputs tables of the docs pages serve five languages: TypeScript's dynamic classes and the
// four generated from the schema. Where the two differ, the table says so, row by row.

const schema = JSON.parse(readFileSync(path.join(repoRoot, SCHEMA_FILE), "utf8")) as PackageSchema;

/** The cells of an inputs table's row for `input`, or undefined. */
function rowOf(table: string, input: string): string[] | undefined {
  return table
    .split("\n")
    .map((line) => line.split(" | "))
    .find((cells) => cells[0].startsWith(`| \`${input}\``));
}

test("DatabaseRestore's table marks the TypeScript-only argument, the schema-only field and the ids TypeScript can fill", () => {
  const table = tables(databaseRestore)["inputs of DatabaseRestore"];
  expect(rowOf(table, "snapshot")?.slice(0, 3)).toEqual(["| `snapshot` (TypeScript only)", expect.any(String), "no"]);
  expect(rowOf(table, "snapshotModified")?.[0]).toBe("| `snapshotModified` (YAML, Python, Go, Java only)");
  for (const id of ["snapshotId", "versionId"])
    expect(rowOf(table, id)?.[2]).toBe("yes (in TypeScript, not when `snapshot` is given)");
});

test.each(kinds.map((kind) => [kind.name, kind] as const))(
  "%s: every input the schema requires reads as required in the table, and no other",
  (name, kind) => {
    const table = tables(kind)[`inputs of ${name}`];
    const resource = schema.resources[typeToken(name)];
    for (const input of Object.keys(resource.inputProperties)) {
      const cell = rowOf(table, input)?.[2];
      expect({ input, required: cell?.startsWith("yes") }).toEqual({
        input,
        required: resource.requiredInputs.includes(input),
      });
    }
  },
);
