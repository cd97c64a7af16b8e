import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { z } from "zod";
import { DEFAULT_BLOB_URL, DEFAULT_PLATFORM_URL, SETTINGS } from "../../../provider/config";
import { type AnyKind, components, kinds } from "../../../provider/kinds";
import { field, notesOf, outputNames } from "../../../provider/kinds/declaration";
import { SCHEMA_FILE } from "../../../scripts/gen";
import { type PackageSchema, packageSchema, type PropertySpec, typeToken } from "../../../scripts/gen/schema";
import { engineDir, repoRoot } from "../../install-script";

// The package schema the native plugin serves, as checked in (the declarations test fails when it
// is stale): every expectation below is derived from the declarations, never listed by hand.

const schemaPath = path.join(repoRoot, SCHEMA_FILE);
const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as PackageSchema;
const resourceOf = (kind: AnyKind) => schema.resources[typeToken(kind.name)];
const flagged = (properties: Record<string, PropertySpec>, flag: "secret" | "replaceOnChanges") =>
  Object.keys(properties)
    .filter((name) => properties[name][flag] === true)
    .sort();
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** The fields zod itself finds missing in an empty object: the required ones, by zod's own rules. */
function requiredByZod(fields: Record<string, z.ZodType>): string[] {
  return sorted((z.object(fields).safeParse({}).error?.issues ?? []).map((issue) => String(issue.path[0])));
}

const byKind = kinds.map((kind) => [kind.name, kind as AnyKind] as const);

test("the package is squarecloud at package.json's version, and every kind and component is a resource of it", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  expect({ name: schema.name, version: schema.version }).toEqual({ name: "squarecloud", version: manifest.version });
  // The registry names the TypeScript package by the schema's nodejs section: npm's name for it.
  expect(schema.language.nodejs.packageName).toBe(manifest.name);
  expect(Object.keys(schema.resources).sort()).toEqual(
    [...kinds, ...components].map((resource) => `squarecloud:index:${resource.name}`).sort(),
  );
});

test.each(components.map((component) => [component.name, component] as const))(
  "%s is a component with the declared inputs and outputs, required as zod requires them, and only components are",
  (_name, component) => {
    const resource = schema.resources[typeToken(component.name)];
    expect(resource.isComponent).toBe(true);
    expect(Object.keys(resource.inputProperties).sort()).toEqual(sorted(Object.keys(component.inputs)));
    expect(sorted(resource.requiredInputs)).toEqual(requiredByZod(component.inputs));
    expect(Object.keys(resource.properties).sort()).toEqual(sorted(Object.keys(component.outputs)));
    expect(sorted(resource.required)).toEqual(requiredByZod(component.outputs));
    for (const kind of kinds) expect(resourceOf(kind).isComponent).toBeUndefined();
  },
);

test("a record is a map: an object type with the values' type", () => {
  expect(schema.resources["squarecloud:index:BlobFolder"].properties.urls).toMatchObject({
    type: "object",
    additionalProperties: { type: "string" },
  });
});

test.each(byKind)(
  "%s: the declared secret inputs and outputs are secret in the schema, and nothing else is",
  (_name, kind) => {
    const resource = resourceOf(kind);
    expect(flagged(resource.inputProperties, "secret")).toEqual(sorted(kind.secretInputs));
    // An output named like a secret input is kept secret by the engine: the schema says so too.
    const outputs = outputNames(kind);
    expect(flagged(resource.properties, "secret")).toEqual(
      sorted([...kind.secretOutputs, ...kind.secretInputs.filter((input: string) => outputs.includes(input))]),
    );
  },
);

test.each(byKind)(
  "%s: the replaceOn inputs, and the outputs named like them, carry replaceOnChanges",
  (_name, kind) => {
    const resource = resourceOf(kind);
    expect(flagged(resource.inputProperties, "replaceOnChanges")).toEqual(sorted(kind.replaceOn));
    expect(flagged(resource.properties, "replaceOnChanges")).toEqual(
      sorted(kind.replaceOn.filter((input: string) => input in resource.properties)),
    );
  },
);

test.each(byKind)(
  "%s: inputs are the declared ones (sdkArgs left out) and required as zod requires them",
  (_name, kind) => {
    const resource = resourceOf(kind);
    expect(Object.keys(resource.inputProperties).sort()).toEqual(sorted(Object.keys(kind.inputs)));
    for (const sdkOnly of Object.keys(kind.sdkArgs ?? {})) expect(resource.inputProperties).not.toHaveProperty(sdkOnly);
    expect(sorted(resource.requiredInputs)).toEqual(requiredByZod(kind.inputs));
  },
);

test.each(byKind)(
  "%s: properties are the outputs, each described and required as its declaration says",
  (_name, kind) => {
    const resource = resourceOf(kind);
    const fields = { ...kind.inputs, ...kind.outputs } as Record<string, z.ZodType>;
    const outputs = outputNames(kind);
    expect(Object.keys(resource.properties).sort()).toEqual(sorted(outputs));
    expect(sorted(resource.required)).toEqual(
      requiredByZod(Object.fromEntries(outputs.map((name) => [name, fields[name]]))),
    );
    // An output named like an input describes what state holds.
    for (const name of Object.keys(kind.outputs))
      expect(resource.properties[name].description).toBe(notesOf(kind.outputs[name]).description);
  },
);

test("the fields the TypeScript SDK derives from its own arguments are inputs here: other programs give them directly", () => {
  const derived = byKind.flatMap(([, kind]) =>
    Object.entries(kind.inputs as Record<string, z.ZodType>)
      .filter(([, field]) => notesOf(field).sdkDerived)
      .map(([name]) => ({ kind: kind.name, name, input: name in resourceOf(kind).inputProperties })),
  );
  expect(derived.length).toBeGreaterThan(0);
  expect(derived.filter(({ input }) => !input)).toEqual([]);
});

test("every property, config variable, provider argument and object type has a description", () => {
  const described = (where: string, properties: Record<string, PropertySpec>) =>
    Object.entries(properties)
      .filter(([, property]) => !(typeof property.description === "string" && property.description.length > 10))
      .map(([name]) => `${where}.${name}`);
  const undescribed = [
    ...described("config", schema.config.variables),
    ...described("provider", schema.provider.inputProperties),
    ...Object.entries(schema.resources).flatMap(([token, resource]) => [
      ...described(`${token} input`, resource.inputProperties),
      ...described(token, resource.properties),
    ]),
    ...Object.entries(schema.functions).flatMap(([token, fn]) => [
      ...described(`${token} input`, fn.inputs?.properties ?? {}),
      ...described(token, fn.outputs.properties),
    ]),
    ...Object.entries(schema.types).flatMap(([token, type]) =>
      type.description ? described(token, type.properties) : [token],
    ),
  ];
  expect(undescribed).toEqual([]);
  expect(Object.keys(schema.types).length).toBeGreaterThan(0);
});

test("zod types map to schema types: integers, assets, any values, literals, named object lists", () => {
  const database = schema.resources["squarecloud:index:Database"];
  expect(database.inputProperties.memory.type).toBe("integer");
  expect(schema.resources["squarecloud:index:BlobObject"].properties.size.type).toBe("number");
  expect(schema.resources["squarecloud:index:BlobObject"].inputProperties.source.$ref).toBe("pulumi.json#/Asset");
  expect(schema.resources["squarecloud:index:AppSnapshot"].inputProperties.trigger.$ref).toBe("pulumi.json#/Any");
  expect(schema.resources["squarecloud:index:DatabaseRestore"].inputProperties.confirm.type).toBe("boolean");
  const members = schema.resources["squarecloud:index:Workspace"].properties.members;
  expect(members).toMatchObject({ type: "array", items: { $ref: "#/types/squarecloud:index:WorkspaceMemberInfo" } });
  expect(schema.types["squarecloud:index:WorkspaceMemberInfo"].required).toEqual(["id", "name", "group", "joinedAt"]);
});

test("an enum is a string whose description names every allowed value (the provider's check refuses the others)", () => {
  const enums = kinds.flatMap((kind) =>
    Object.entries(kind.inputs as Record<string, z.ZodType>)
      .filter(([, schema]) => schema._zod.def.type === "enum")
      .map(([name, schema]) => ({
        property: resourceOf(kind).inputProperties[name],
        values: (schema as z.ZodEnum).options as string[],
      })),
  );
  expect(enums.length).toBeGreaterThan(0);
  for (const { property, values } of enums) {
    expect(property.type).toBe("string");
    for (const value of values) expect(property.description).toContain(`\`${value}\``);
  }
});

test("the config variables and the provider's arguments are the provider's settings, the key secret", () => {
  for (const properties of [schema.config.variables, schema.provider.inputProperties]) {
    expect(
      Object.keys(properties)
        .map((name) => `squarecloud:${name}`)
        .sort(),
    ).toEqual(
      Object.values(SETTINGS)
        .map((setting) => setting.key)
        .sort(),
    );
    expect(flagged(properties, "secret")).toEqual(["apiKey"]);
    expect(properties).toMatchObject({
      platformUrl: {
        type: "string",
        default: DEFAULT_PLATFORM_URL,
        defaultInfo: { environment: [SETTINGS.platformUrl.env] },
      },
      blobUrl: { type: "string", default: DEFAULT_BLOB_URL, defaultInfo: { environment: [SETTINGS.blobUrl.env] } },
      skipCredentialsCheck: { type: "boolean", default: false },
      apiKey: { type: "string", defaultInfo: { environment: [SETTINGS.apiKey.env] } },
    });
  }
});

describe("the generator refuses what it cannot type", () => {
  const manifest = { version: "1.0.0", description: "test", license: "Apache-2.0" };
  const kindWith = (outputs: Record<string, z.ZodType>): AnyKind => ({ ...kinds[0], outputs });

  test("a zod type it does not know", () => {
    expect(() =>
      packageSchema([kindWith({ at: field(z.date(), "A date the generator has no type for.") })], [], manifest),
    ).toThrow('Database.at: no package schema type is known for the zod type "date"');
  });

  test("an object type without a name, or named like a resource", () => {
    const item = z.object({ id: z.string().describe("An id.") }).describe("An item.");
    expect(() =>
      packageSchema([kindWith({ items: field(z.array(item), "Items without a type name.") })], [], manifest),
    ).toThrow(/Database\.items\[\]: an object needs a name/);
    expect(() =>
      packageSchema(
        [kindWith({ items: field(z.array(item), "Items named like a resource.", { schemaType: "Database" }) })],
        [],
        manifest,
      ),
    ).toThrow(/the object type's name Database is a resource's/);
  });
});

describe("the engine's own schema checker", () => {
  // `pulumi schema check` binds a schema file as the code generators do, offline, in well under a second.
  const check = (file: string) =>
    spawnSync(path.join(engineDir(), "pulumi"), ["schema", "check", file], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    });

  test("binds the schema with no error or warning", () => {
    const run = check(schemaPath);
    expect({ status: run.status, output: run.stdout + run.stderr }).toEqual({ status: 0, output: "" });
  });

  test("refuses a schema with a dangling reference, so a pass above means something", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "schema-check-"));
    try {
      const broken = structuredClone(schema);
      broken.resources["squarecloud:index:Workspace"].properties.members.items = {
        $ref: "#/types/squarecloud:index:Missing",
      };
      writeFileSync(path.join(dir, "schema.json"), JSON.stringify(broken));
      const run = check(path.join(dir, "schema.json"));
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain("type squarecloud:index:Missing not found");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
