import type { z } from "zod";
import { SETTINGS } from "../../provider/config";
import type { AnyFunction } from "../../provider/functions/declaration";
import {
  type AnyKind,
  type ComponentDeclaration,
  type FieldNotes,
  notesOf,
  outputNames,
} from "../../provider/kinds/declaration";
import { stableJson } from "../../provider/stable-json";
import { JAVA_BASE_PACKAGE } from "./java-pom";
import { GO_MODULE_PATH, PLUGIN_DOWNLOAD_URL, REPOSITORY_URL } from "./repository";
import { registryDescription } from "./registry-docs";
import { isOptional } from "./types";

export { GO_MODULE_PATH };

/**
 * The Pulumi package schema of the native provider plugin
 * (https://www.pulumi.com/docs/iac/extensions/packages/schema/), from the kinds' declarations and
 * the provider's settings: what Pulumi YAML checks programs against, what the SDKs of other
 * languages are generated from, and what `pulumi import` writes code from.
 *
 * A kind's inputs are its resource's input properties, the SDK-only arguments (`sdkArgs`) left
 * out and the fields the TypeScript SDK derives (`sdkDerived`) kept: other programs give them
 * directly. Enums are plain strings: the provider's check refuses other values with the same
 * message as the dynamic path, and the descriptions name the values. A component is a resource
 * marked `isComponent`: the plugin's `construct` declares its children.
 */

import { PACKAGE_NAME, typeToken } from "../../provider/tokens";

export { PACKAGE_NAME, typeToken };

/** A property's type: a primitive, a list, or a reference to a named or built-in type. */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  /** A map's values (`type: "object"`): string keys, values of one type. */
  additionalProperties?: TypeSpec;
  $ref?: string;
}

export interface PropertySpec extends TypeSpec {
  description: string;
  secret?: true;
  deprecationMessage?: string;
  replaceOnChanges?: true;
  default?: string | boolean;
  defaultInfo?: { environment: string[] };
}

export interface ObjectTypeSpec {
  type: "object";
  description: string;
  properties: Record<string, PropertySpec>;
  required: string[];
}

export interface ResourceSpec {
  isComponent?: true;
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}

/** A data source: what `fn::invoke` takes and returns. */
export interface FunctionSpec {
  description: string;
  inputs?: { properties: Record<string, PropertySpec>; required: string[] };
  outputs: { properties: Record<string, PropertySpec>; required: string[] };
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  publisher: string;
  homepage: string;
  repository: string;
  logoUrl: string;
  /** Where the engine downloads the plugin; the SDKs generated from the schema carry it as `server`. */
  pluginDownloadURL: string;
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectTypeSpec>;
  language: {
    go: GoPackageOptions;
    java: JavaPackageOptions;
    nodejs: NodejsPackageOptions;
    python: PythonPackageOptions;
  };
}

/** How the Go SDK is generated (codegen/go's GoPackageInfo). */
export interface GoPackageOptions {
  importBasePath: string;
  rootPackageName: string;
  respectSchemaVersion: boolean;
}

/**
 * The Go SDK: the package `squarecloud` of the module in sdk/go, versioned as the package (so
 * programs ask the engine for the plugin of that same version). No resource container types
 * (arrays and maps of resources): no kind takes a list of resources as an input.
 */
const GO: GoPackageOptions = {
  importBasePath: `${GO_MODULE_PATH}/${PACKAGE_NAME}`,
  rootPackageName: PACKAGE_NAME,
  respectSchemaVersion: true,
};

/** How the Java SDK is generated (pulumi-java's codegen/java PackageInfo). */
export interface JavaPackageOptions {
  basePackage: string;
}

/** The Java SDK: the package `io.github.squarecloud.squarecloud` (the Maven group, then the package name). */
const JAVA: JavaPackageOptions = { basePackage: JAVA_BASE_PACKAGE };

/** What the registry says of the TypeScript package (codegen/nodejs's NodePackageInfo). */
export interface NodejsPackageOptions {
  packageName: string;
}

/**
 * The TypeScript SDK: npm's `pulumi-squarecloud` (package.json's name), the dynamic classes of
 * sdk/nodejs, which no generator writes; the registry names it in its install steps. There is no
 * csharp section: no .NET SDK is built, and the section would have the registry name one.
 */
const NODEJS: NodejsPackageOptions = { packageName: `pulumi-${PACKAGE_NAME}` };

/** How the Python SDK is generated (codegen/python's PackageInfo). */
export interface PythonPackageOptions {
  packageName: string;
  requires: Record<string, string>;
  pyproject: { enabled: boolean };
  respectSchemaVersion: boolean;
  pythonRequires: string;
}

/**
 * The Python SDK: importable as `pulumi_squarecloud`, built from a pyproject.toml, versioned as
 * the package (so programs ask the engine for the plugin of that same version). Python 3.10 is
 * the oldest that PyPI `pulumi` 3.272 installs on. PyPI `pulumi` 3.165.0 is the first with
 * `type_token`, which the generated classes are decorated with (and `InvokeOutputOptions`, which
 * the functions take, came in 3.141.0): tests/e2e/python/floor.test.ts runs programs on it.
 */
const PYTHON: PythonPackageOptions = {
  packageName: `pulumi_${PACKAGE_NAME}`,
  requires: { pulumi: ">=3.165.0,<4.0.0" },
  pyproject: { enabled: true },
  respectSchemaVersion: true,
  pythonRequires: ">=3.10",
};

/** What the schema says of the package itself (package.json's fields). */
export interface PackageInfo {
  version: string;
  description: string;
  license: string;
}

/**
 * `examples` holds, by kind name, the example programs of its docs page that the registry shows
 * with its description (see registry-docs.ts).
 */
export function packageSchema(
  kinds: readonly AnyKind[],
  components: readonly ComponentDeclaration[],
  info: PackageInfo,
  functions: readonly AnyFunction[] = [],
  examples: Record<string, { language: string; code: string }[]> = {},
): PackageSchema {
  const types = new ObjectTypes([...kinds, ...components].map((resource) => resource.name));
  const resources = Object.fromEntries([
    ...kinds.map((kind) => [
      typeToken(kind.name),
      { ...resourceSpec(kind, types), description: registryDescription(kind, examples[kind.name] ?? []) },
    ]),
    ...components.map((component) => [typeToken(component.name), componentSpec(component, types)]),
  ]);
  const functionSpecs = Object.fromEntries(functions.map((fn) => [typeToken(fn.name), functionSpec(fn, types)]));
  const settings = settingProperties();
  return {
    name: PACKAGE_NAME,
    displayName: "Square Cloud",
    version: info.version,
    description: info.description,
    keywords: ["pulumi", PACKAGE_NAME, "category/cloud", "kind/native"],
    license: info.license,
    publisher: "Square Cloud",
    homepage: REPOSITORY_URL,
    repository: REPOSITORY_URL,
    logoUrl: `${REPOSITORY_URL.replace("https://github.com", "https://raw.githubusercontent.com")}/main/docs/logo.svg`,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: settings },
    provider: {
      description:
        "The Square Cloud provider. An explicit one takes these arguments (the default provider takes the stack's `squarecloud:` config); a setting left out falls back to its environment variable, then to its default.",
      inputProperties: settings,
    },
    resources,
    functions: functionSpecs,
    types: types.all(),
    language: { go: GO, java: JAVA, nodejs: NODEJS, python: PYTHON },
  };
}

/** The schema as the checked-in file holds it: indented, keys sorted, so it changes only with its data. */
export function schemaText(schema: PackageSchema): string {
  return `${stableJson(schema, 2)}\n`;
}

function resourceSpec(kind: AnyKind, types: ObjectTypes): ResourceSpec {
  const inputs = kind.inputs as Record<string, z.ZodType>;
  // An output named like an input says what state holds (an inferred MIME type): it wins.
  const fields = { ...inputs, ...kind.outputs } as Record<string, z.ZodType>;
  const outputs = outputNames(kind);
  return {
    description: kind.description,
    inputProperties: Object.fromEntries(
      Object.entries(inputs).map(([name, schema]) => [
        name,
        kindPropertySpec(kind, name, schema, kind.secretInputs.includes(name), types),
      ]),
    ),
    requiredInputs: Object.keys(inputs).filter((name) => !isOptional(inputs[name])),
    // The engine keeps an output named like a secret input secret: the schema says so too.
    properties: Object.fromEntries(
      outputs.map((name) => [
        name,
        kindPropertySpec(
          kind,
          name,
          fields[name],
          kind.secretOutputs.includes(name) || kind.secretInputs.includes(name),
          types,
        ),
      ]),
    ),
    required: outputs.filter((name) => !isOptional(fields[name])),
  };
}

/**
 * A data source's arguments and result. Functions without arguments have no inputs; result fields
 * that hold a credential are secret, at any depth (see objectSpec).
 */
function functionSpec(fn: AnyFunction, types: ObjectTypes): FunctionSpec {
  const objectOf = (fields: Record<string, z.ZodType>, side: string) => ({
    properties: Object.fromEntries(
      Object.entries(fields).map(([name, schema]) => [name, propertySpec(`${fn.name}.${side}.${name}`, schema, types)]),
    ),
    required: Object.keys(fields).filter((name) => !isOptional(fields[name])),
  });
  return {
    description: fn.description,
    ...(Object.keys(fn.args).length > 0 ? { inputs: objectOf(fn.args, "args") } : {}),
    outputs: objectOf(fn.result, "result"),
  };
}

/** A kind's property: its type, description, and the flags the kind's lists give it. */
function kindPropertySpec(
  kind: AnyKind,
  name: string,
  schema: z.ZodType,
  secret: boolean,
  types: ObjectTypes,
): PropertySpec {
  return {
    ...propertySpec(`${kind.name}.${name}`, schema, types),
    ...(secret ? { secret: true } : {}),
    ...(kind.replaceOn.includes(name) ? { replaceOnChanges: true } : {}),
  };
}

/**
 * A component's entry: its inputs and outputs as declared. It has no secret or replace flags:
 * its children, each a resource of a kind, carry their own.
 */
function componentSpec(component: ComponentDeclaration, types: ObjectTypes): ResourceSpec {
  const properties = (fields: Record<string, z.ZodType>) =>
    Object.fromEntries(
      Object.entries(fields).map(([name, schema]) => [name, propertySpec(`${component.name}.${name}`, schema, types)]),
    );
  const required = (fields: Record<string, z.ZodType>) =>
    Object.keys(fields).filter((name) => !isOptional(fields[name]));
  return {
    isComponent: true,
    description: component.description,
    inputProperties: properties(component.inputs),
    requiredInputs: required(component.inputs),
    properties: properties(component.outputs),
    required: required(component.outputs),
  };
}

/** A field declared with `field()`: its type, description, and its secrecy where the field itself says it holds a credential. */
function propertySpec(where: string, schema: z.ZodType, types: ObjectTypes): PropertySpec {
  const notes = notesOf(schema);
  return {
    ...(isAsset(notes.sdkType) ? { $ref: "pulumi.json#/Asset" } : typeSpec(schema, where, types, notes.schemaType)),
    description: notes.description,
    ...(notes.secret ? { secret: true } : {}),
    ...deprecation(notes),
  };
}

function deprecation(notes: FieldNotes): Pick<PropertySpec, "deprecationMessage"> {
  return notes.deprecation === undefined ? {} : { deprecationMessage: notes.deprecation };
}

/** An SDK type made of Pulumi assets only (`pulumi.asset.FileAsset | pulumi.asset.StringAsset`). */
function isAsset(sdkType: string | undefined): boolean {
  return sdkType?.split(" | ").every((type) => /^pulumi\.asset\.\w+Asset$/.test(type)) ?? false;
}

/**
 * The schema type a zod field stands for. Only the zod types the declarations use are known;
 * another one fails the generator rather than writing a wrong type. `name` is the object type's
 * name when the field holds an object (or a list of them).
 */
function typeSpec(
  schema: z.ZodType,
  where: string,
  types: ObjectTypes,
  name = (schema.meta() as FieldNotes | undefined)?.schemaType,
): TypeSpec {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "string":
    case "boolean":
      return { type: def.type };
    case "number":
      return { type: isInteger(schema) ? "integer" : "number" };
    case "unknown":
      return { $ref: "pulumi.json#/Any" };
    case "enum":
      return { type: primitiveOf(Object.values(def.entries as Record<string, unknown>), where) };
    case "literal":
      return { type: primitiveOf(def.values as unknown[], where) };
    case "optional":
    case "default":
      return typeSpec(def.innerType as z.ZodType, where, types, name);
    case "array":
      return { type: "array", items: typeSpec(def.element as z.ZodType, `${where}[]`, types, name) };
    case "tuple":
      return { type: "array", items: tupleItem(def.items as z.ZodType[], where, types) };
    case "record":
      return { type: "object", additionalProperties: typeSpec(def.valueType as z.ZodType, `${where}{}`, types, name) };
    case "object":
      return { $ref: types.define(name, where, objectSpec(schema, where, types)) };
    default:
      throw new Error(`${where}: no package schema type is known for the zod type "${def.type}"`);
  }
}

/** A tuple is a list in the schema: its items must share one type. */
function tupleItem(items: z.ZodType[], where: string, types: ObjectTypes): TypeSpec {
  const specs = items.map((item, i) => typeSpec(item, `${where}[${i}]`, types));
  if (new Set(specs.map((spec) => stableJson(spec))).size !== 1)
    throw new Error(`${where}: a tuple of different types has no package schema type`);
  return specs[0];
}

/** Number formats of zod's integer checks (`.int()` is "safeint"). */
const INTEGER_FORMATS = ["safeint", "int32", "uint32"];

function isInteger(schema: z.ZodType): boolean {
  const def = schema._zod.def as { format?: string; checks?: { _zod: { def: { format?: string } } }[] };
  return [def, ...(def.checks ?? []).map((check) => check._zod.def)].some((check) =>
    INTEGER_FORMATS.includes(check.format ?? ""),
  );
}

/** The one primitive type of an enum's or a literal's values. */
function primitiveOf(values: unknown[], where: string): "string" | "number" | "boolean" {
  const kinds = [...new Set(values.map((value) => typeof value))];
  if (kinds.length === 1 && (kinds[0] === "string" || kinds[0] === "number" || kinds[0] === "boolean")) return kinds[0];
  throw new Error(`${where}: values of the types ${kinds.join(", ")} have no package schema type`);
}

/** An object type: its fields described with zod's `.describe()` (the API's payloads are). */
function objectSpec(schema: z.ZodType, where: string, types: ObjectTypes): ObjectTypeSpec {
  const shape = (schema._zod.def as unknown as { shape: Record<string, z.ZodType> }).shape;
  return {
    type: "object",
    description: describedAs(schema, where),
    properties: Object.fromEntries(
      Object.entries(shape).map(([field, fieldSchema]) => {
        const at = `${where}.${field}`;
        const notes = (fieldSchema.meta() ?? {}) as FieldNotes;
        const secret = notes.secret ? { secret: true as const } : {};
        const described = { description: describedAs(fieldSchema, at), ...secret, ...deprecation(notes) };
        return [field, { ...typeSpec(fieldSchema, at, types), ...described }];
      }),
    ),
    required: Object.keys(shape).filter((field) => !isOptional(shape[field])),
  };
}

function describedAs(schema: z.ZodType, where: string): string {
  const description = (schema.meta() as { description?: string } | undefined)?.description;
  if (description === undefined)
    throw new Error(`${where}: no description for the package schema (give it one with .describe())`);
  return description;
}

/** The named object types the properties refer to, each defined once under one name. */
class ObjectTypes {
  private readonly specs = new Map<string, ObjectTypeSpec>();

  constructor(private readonly resourceNames: readonly string[]) {}

  /** The reference to `spec` under `name`; a missing name, or one taken by something else, fails. */
  define(name: string | undefined, where: string, spec: ObjectTypeSpec): string {
    if (name === undefined)
      throw new Error(`${where}: an object needs a name in the package schema: give the field a schemaType note`);
    // SDKs put types and resources side by side: one name for both would clash.
    if (this.resourceNames.includes(name)) throw new Error(`${where}: the object type's name ${name} is a resource's`);
    const known = this.specs.get(name);
    if (known !== undefined && stableJson(known) !== stableJson(spec))
      throw new Error(`${where}: ${name} already names another object type`);
    this.specs.set(name, spec);
    return `#/types/${typeToken(name)}`;
  }

  all(): Record<string, ObjectTypeSpec> {
    return Object.fromEntries([...this.specs].map(([name, spec]) => [typeToken(name), spec]));
  }
}

/** The provider's settings: the package's config variables and an explicit provider's arguments. */
function settingProperties(): Record<string, PropertySpec> {
  return Object.fromEntries(
    Object.values(SETTINGS).map((setting) => {
      const spec: PropertySpec = {
        // Only a flag has a default that is not a string.
        type: "default" in setting && typeof setting.default === "boolean" ? "boolean" : "string",
        description: setting.description,
        ...("secret" in setting ? { secret: true } : {}),
        ...("default" in setting ? { default: setting.default } : {}),
        defaultInfo: { environment: [setting.env] },
      };
      return [variableName(setting.key), spec];
    }),
  );
}

/** A config key's name within the package: `squarecloud:apiKey` is the variable `apiKey`. */
function variableName(key: string): string {
  const prefix = `${PACKAGE_NAME}:`;
  if (!key.startsWith(prefix)) throw new Error(`the setting ${key} is not in the ${PACKAGE_NAME} namespace`);
  return key.slice(prefix.length);
}
