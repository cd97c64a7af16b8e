import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { functions } from "../../../provider/functions";
import { type AnyFunction, fieldsWithin } from "../../../provider/functions/declaration";
import { field, notesOf } from "../../../provider/kinds/declaration";
import { SCHEMA_FILE } from "../../../scripts/gen";
import {
  type FunctionSpec,
  type PackageSchema,
  packageSchema,
  type PropertySpec,
  typeToken,
} from "../../../scripts/gen/schema";
import { repoRoot } from "../../install-script";

// The package schema's functions, as checked in, against the functions' declarations: what YAML's
// `fn::invoke` checks arguments against, and what SDKs of other languages are generated from.

const schema = JSON.parse(readFileSync(path.join(repoRoot, SCHEMA_FILE), "utf8")) as PackageSchema;
const specOf = (fn: AnyFunction): FunctionSpec => schema.functions[typeToken(fn.name)];
const byName = functions.map((fn) => [fn.name, fn as AnyFunction] as const);
const sorted = (names: Iterable<string>) => [...names].sort();

/** The fields zod itself finds missing in an empty object: the required ones, by zod's own rules. */
function requiredByZod(fields: Record<string, z.ZodType>): string[] {
  return sorted((z.object(fields).safeParse({}).error?.issues ?? []).map((issue) => String(issue.path[0])));
}

test("every declared function is a function of the package, and nothing else is", () => {
  expect(sorted(Object.keys(schema.functions))).toEqual(sorted(functions.map((fn) => `squarecloud:index:${fn.name}`)));
});

test.each(byName)(
  "%s: inputs are the declared arguments, outputs the declared result, required as zod requires them",
  (_name, fn) => {
    const spec = specOf(fn);
    expect(spec.description).toBe(fn.description);
    expect(sorted(Object.keys(spec.inputs?.properties ?? {}))).toEqual(sorted(Object.keys(fn.args)));
    expect(sorted(spec.inputs?.required ?? [])).toEqual(requiredByZod(fn.args));
    expect(sorted(Object.keys(spec.outputs.properties))).toEqual(sorted(Object.keys(fn.result)));
    expect(sorted(spec.outputs.required)).toEqual(requiredByZod(fn.result));
  },
);

/** Every property path (through object types and lists of them) that the schema marks secret. */
function secretPaths(properties: Record<string, PropertySpec>, at: string): string[] {
  return Object.entries(properties).flatMap(([name, property]) => {
    const ref = property.$ref ?? property.items?.$ref;
    const inner = ref ? secretPaths(schema.types[ref.replace("#/types/", "")].properties, `${at}.${name}`) : [];
    return property.secret ? [`${at}.${name}`, ...inner] : inner;
  });
}

/** The same paths, from the declaration's `secret` notes. */
function declaredSecretPaths(fields: Record<string, z.ZodType>, at: string): string[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const shape = fieldsWithin(field);
    const inner = shape ? declaredSecretPaths(shape, `${at}.${name}`) : [];
    return notesOf(field).secret ? [`${at}.${name}`, ...inner] : inner;
  });
}

test("the result fields that hold a credential are secret in the schema, at any depth, and nothing else is", () => {
  const inSchema = functions.flatMap((fn) => secretPaths(specOf(fn).outputs.properties, fn.name));
  expect(sorted(inSchema)).toEqual(sorted(functions.flatMap((fn) => declaredSecretPaths(fn.result, fn.name))));
  // The snapshot's pre-signed key, in both functions that return one.
  expect(sorted(inSchema)).toEqual(["getLatestDatabaseSnapshot.key", "getSnapshots.entries.key"]);
});

test("a tuple is a list of its items' one type; a tuple of different types is refused", () => {
  expect(schema.types["squarecloud:index:MetricPoint"].properties.net).toMatchObject({
    type: "array",
    items: { type: "number" },
  });
  const pair: AnyFunction = {
    ...functions[0],
    result: { pair: field(z.tuple([z.string(), z.number()]), "A pair of two types.") },
  };
  expect(() => packageSchema([], [], { version: "1.0.0", description: "test", license: "Apache-2.0" }, [pair])).toThrow(
    "getAccount.result.pair: a tuple of different types has no package schema type",
  );
});
