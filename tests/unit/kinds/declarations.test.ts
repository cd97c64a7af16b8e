import type { z } from "zod";
import { handlers } from "../../../provider";
import { kinds } from "../../../provider/kinds";
import { notesOf } from "../../../provider/kinds/declaration";
import { staleFiles } from "../../../scripts/gen";
import * as sdk from "../../../sdk/nodejs";

// Everything a kind's declaration generates or names must agree with it: a field added to a
// declaration shows up in the SDK class, its Args and the docs tables, or this fails.

test("the generated SDK classes and docs tables are what the declarations give (run `npm run gen`)", () => {
  expect(staleFiles()).toEqual([]);
});

test.each(kinds.map((kind) => [kind.name, kind] as const))(
  "%s: every field has a description, and its lists name declared fields",
  (_name, kind) => {
    const inputs = Object.keys(kind.inputs);
    const fields = [
      ...Object.values(kind.inputs),
      ...Object.values(kind.outputs),
      ...Object.values(kind.sdkArgs ?? {}),
    ] as z.ZodType[];
    for (const schema of fields) expect(notesOf(schema).description.length).toBeGreaterThan(10);
    for (const list of [kind.replaceOn, kind.updateOn, kind.secretInputs, kind.notOutputs])
      expect(inputs).toEqual(expect.arrayContaining([...list]));
    expect([...inputs, ...Object.keys(kind.outputs)]).toEqual(expect.arrayContaining([...kind.secretOutputs]));
    expect(kind.replaceOn.filter((input) => (kind.updateOn as readonly string[]).includes(input))).toEqual([]);
  },
);

test("each kind is served by a handler under its kind and exported as an SDK class of its name", () => {
  expect(Object.keys(handlers).sort()).toEqual(kinds.map((kind) => kind.kind).sort());
  for (const kind of kinds)
    expect({ kind: kind.name, exported: typeof (sdk as Record<string, unknown>)[kind.name] }).toEqual({
      kind: kind.name,
      exported: "function",
    });
});

test("no name is exported twice by the package", () => {
  // TypeScript refuses a value exported twice; a type shadowed by a value of the same name is not
  // refused, so the declaration files are read for exported type names.
  const { readFileSync } = require("node:fs") as typeof import("node:fs");
  const { join } = require("node:path") as typeof import("node:path");
  const declarations = readFileSync(join(__dirname, "..", "..", "..", "sdk", "nodejs", "index.d.ts"), "utf8");
  const names = [...declarations.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
    match[1]
      .split(",")
      .map((name) => name.trim().split(" as ").pop() as string)
      .filter(Boolean),
  );
  const data = readFileSync(join(__dirname, "..", "..", "..", "sdk", "nodejs", "functions", "index.d.ts"), "utf8");
  const dataNames = [...data.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
    match[1]
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
  const all = [...names, ...dataNames];
  expect(all.filter((name, i) => all.indexOf(name) !== i)).toEqual([]);
});
