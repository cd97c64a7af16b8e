/**
 * The differences between two package schemas (the last release's and the current one), each
 * classed by docs/release.md's rules for a provider, where a user's program and state are the
 * interface:
 *
 *   breaking  a resource, data source, type, config variable or property removed or renamed; a new
 *             required input or an input that becomes required; an output that stops being
 *             always set; a changed type; a changed default; a field that starts to replace; an
 *             enum that loses a value (a narrower range)
 *   minor     a new resource, data source, type, config variable, optional input or output; an
 *             input that stops being required; an output always set from now on; a field that
 *             stops replacing; an enum that gains a value (a wider range)
 *   patch     anything else that differs: descriptions, secrecy, the package's metadata
 *
 * What a schema cannot show (ranges checked only by the provider, state read differently) is the
 * changelog's to say.
 */

export type Level = "breaking" | "minor" | "patch";

export interface Difference {
  level: Level;
  /** Where, from the package down: `resource Workspace: output applications`. */
  where: string;
  change: string;
}

/** A property as a package schema declares it (inputs, outputs, an object type's fields, config). */
interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  oneOf?: Property[];
  default?: unknown;
  replaceOnChanges?: boolean;
  secret?: boolean;
  description?: string;
  [other: string]: unknown;
}

interface ObjectSpec {
  properties?: Record<string, Property>;
  required?: string[];
  description?: string;
}

interface ResourceSpec extends ObjectSpec {
  inputProperties?: Record<string, Property>;
  requiredInputs?: string[];
  isComponent?: boolean;
}

interface TypeSpec extends ObjectSpec {
  type?: string;
  enum?: { value: unknown; name?: string; description?: string }[];
}

interface FunctionSpec {
  description?: string;
  inputs?: ObjectSpec;
  outputs?: ObjectSpec;
}

export interface PackageSchema {
  name: string;
  version?: string;
  config?: { variables?: Record<string, Property>; defaults?: string[] };
  provider?: ResourceSpec;
  resources?: Record<string, ResourceSpec>;
  functions?: Record<string, FunctionSpec>;
  types?: Record<string, TypeSpec>;
  [metadata: string]: unknown;
}

const LEVELS: Level[] = ["breaking", "minor", "patch"];

/** Every difference from `before` to `after`, breaking ones first, then minor, then patch. */
export function compareSchemas(before: PackageSchema, after: PackageSchema): Difference[] {
  const found: Difference[] = [];
  const add = (level: Level, where: string, change: string) => found.push({ level, where, change });

  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (["config", "provider", "resources", "functions", "types", "version"].includes(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) add("patch", "package", `${key} changed`);
  }

  const config = (schema: PackageSchema): ObjectSpec => ({
    properties: schema.config?.variables,
    required: schema.config?.defaults,
  });
  compareObject(add, "config", config(before), config(after), "input");
  compareResource(add, "provider", before.provider ?? {}, after.provider ?? {});

  compareNamed(add, "resource", before.resources, after.resources, resourceSignature, (where, a, b) =>
    compareResource(add, where, a, b),
  );
  compareNamed(add, "data source", before.functions, after.functions, functionSignature, (where, a, b) => {
    if (a.description !== b.description) add("patch", where, "description changed");
    compareObject(add, `${where}: argument`, a.inputs ?? {}, b.inputs ?? {}, "input");
    compareObject(add, `${where}: result`, a.outputs ?? {}, b.outputs ?? {}, "output");
  });
  compareNamed(add, "type", before.types, after.types, typeSignature, (where, a, b) => {
    if (a.description !== b.description) add("patch", where, "description changed");
    if ((a.type ?? "object") !== (b.type ?? "object"))
      return add("breaking", where, `type changed from ${a.type ?? "object"} to ${b.type ?? "object"}`);
    if (a.enum || b.enum) return compareEnum(add, where, a.enum ?? [], b.enum ?? []);
    // An object type is read and written by programs alike: a field is both an input and an output.
    compareObject(add, `${where}: field`, a, b, "both");
  });
  return LEVELS.flatMap((level) => found.filter((difference) => difference.level === level));
}

type Add = (level: Level, where: string, change: string) => void;

function compareResource(add: Add, where: string, a: ResourceSpec, b: ResourceSpec): void {
  if (a.description !== b.description) add("patch", where, "description changed");
  if (Boolean(a.isComponent) !== Boolean(b.isComponent))
    add("breaking", where, b.isComponent ? "became a component" : "stopped being a component");
  compareObject(
    add,
    `${where}: input`,
    { properties: a.inputProperties, required: a.requiredInputs },
    { properties: b.inputProperties, required: b.requiredInputs },
    "input",
  );
  compareObject(add, `${where}: output`, a, b, "output");
}

/**
 * The properties of one object (a resource's inputs or outputs, a data source's arguments or
 * result, a type's fields, the config), as a program gives them (input), reads them (output), or
 * both: a required input is a new obligation, a no longer required output a value a program may
 * miss.
 */
function compareObject(add: Add, where: string, a: ObjectSpec, b: ObjectSpec, role: "input" | "output" | "both"): void {
  const [requiredA, requiredB] = [new Set(a.required ?? []), new Set(b.required ?? [])];
  const input = role !== "output";
  const output = role !== "input";
  compareNamed(
    add,
    where,
    a.properties,
    b.properties,
    (property) => typeText(property),
    (at, pa, pb, name) => {
      const nameB = name.after;
      compareProperty(add, at, pa, pb);
      const [wasRequired, isRequired] = [requiredA.has(name.before), requiredB.has(nameB)];
      if (!wasRequired && isRequired) {
        if (input) add("breaking", at, "became required");
        else add("minor", at, "always set from now on");
      }
      if (wasRequired && !isRequired) {
        if (output) add("breaking", at, "no longer always set");
        else add("minor", at, "no longer required");
      }
    },
    (at, name) => {
      if (input && requiredB.has(name)) add("breaking", at, "new required input");
      else add("minor", at, input ? "new optional" : "new");
    },
  );
}

function compareProperty(add: Add, where: string, a: Property, b: Property): void {
  const [typeA, typeB] = [typeText(a), typeText(b)];
  if (typeA !== typeB) add("breaking", where, `type changed from ${typeA} to ${typeB}`);
  if (JSON.stringify(a.default) !== JSON.stringify(b.default))
    add("breaking", where, `default changed from ${JSON.stringify(a.default)} to ${JSON.stringify(b.default)}`);
  if (!a.replaceOnChanges && b.replaceOnChanges) add("breaking", where, "a change now replaces the resource");
  if (a.replaceOnChanges && !b.replaceOnChanges) add("minor", where, "a change no longer replaces the resource");
  if (Boolean(a.secret) !== Boolean(b.secret)) add("patch", where, b.secret ? "became secret" : "no longer secret");
  if (a.description !== b.description) add("patch", where, "description changed");
}

function compareEnum(add: Add, where: string, a: NonNullable<TypeSpec["enum"]>, b: NonNullable<TypeSpec["enum"]>) {
  const [valuesA, valuesB] = [a, b].map((values) => new Set(values.map((entry) => JSON.stringify(entry.value))));
  for (const value of valuesA)
    if (!valuesB.has(value)) add("breaking", where, `enum value ${value} removed (a narrower range)`);
  for (const value of valuesB) if (!valuesA.has(value)) add("minor", where, `enum value ${value} added`);
}

/**
 * Two maps of named things (resources, properties...): each removed one, each new one, and each
 * kept one compared by `compare`. A removed and a new one of the same signature, when they are the
 * only removed and the only new one of it, are reported as a rename.
 */
function compareNamed<T>(
  add: Add,
  where: string,
  a: Record<string, T> | undefined,
  b: Record<string, T> | undefined,
  signature: (item: T) => string,
  compare: (where: string, before: T, after: T, name: { before: string; after: string }) => void,
  added: (where: string, name: string) => void = (at) => add("minor", at, "new"),
): void {
  const [before, after] = [a ?? {}, b ?? {}];
  const removed = Object.keys(before).filter((name) => !(name in after));
  const created = Object.keys(after).filter((name) => !(name in before));
  const at = (name: string) => `${where} ${displayName(name)}`;
  for (const name of Object.keys(before).filter((name) => name in after))
    compare(at(name), before[name], after[name], { before: name, after: name });
  for (const name of removed) {
    const sameShape = (names: string[], item: T) =>
      names.filter((other) => signature(other in before ? before[other] : after[other]) === signature(item));
    const renamedTo = sameShape(created, before[name]);
    if (renamedTo.length === 1 && sameShape(removed, before[name]).length === 1) {
      add("breaking", at(name), `renamed to ${displayName(renamedTo[0])}`);
      compare(at(renamedTo[0]), before[name], after[renamedTo[0]], { before: name, after: renamedTo[0] });
      created.splice(created.indexOf(renamedTo[0]), 1);
    } else add("breaking", at(name), "removed");
  }
  for (const name of created) added(at(name), name);
}

/** A token's last part (`squarecloud:index:Database` is Database); a property's name as it is. */
function displayName(name: string): string {
  return name.split(":").pop() ?? name;
}

/** A property's type as one line: `string`, `integer[]`, `map<string>`, `#/types/...:Foo`. */
function typeText(property: Property): string {
  if (property.$ref !== undefined) return displayName(property.$ref);
  if (property.type === "array" && property.items) return `${typeText(property.items)}[]`;
  if (property.type === "object" && property.additionalProperties)
    return `map<${typeText(property.additionalProperties)}>`;
  if (property.oneOf) return property.oneOf.map(typeText).join(" | ");
  return property.type ?? "any";
}

const fields = (properties: Record<string, Property> | undefined) =>
  Object.entries(properties ?? {})
    .map(([name, property]) => `${name}:${typeText(property)}`)
    .sort()
    .join(",");

const resourceSignature = (resource: ResourceSpec) =>
  `${fields(resource.inputProperties)}|${fields(resource.properties)}`;
const functionSignature = (fn: FunctionSpec) => `${fields(fn.inputs?.properties)}|${fields(fn.outputs?.properties)}`;
const typeSignature = (type: TypeSpec) =>
  type.enum ? JSON.stringify(type.enum.map((entry) => entry.value)) : fields(type.properties);

/** The least version after `last` that a release with differences of `level` may take (0.x: breaking is a minor step). */
export function nextVersion(last: string, level: Level | undefined): string {
  const [major, minor, patch] = last.split(/[.-]/).map(Number);
  if (level === "breaking") return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
  if (level === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** -1, 0 or 1 as release `a` (its pre-release suffix dropped) precedes, equals or follows `b`. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((version) => version.replace(/-.*$/, "").split(".").map(Number));
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  return 0;
}

/** The highest level among the differences, undefined when there are none. */
export function highestLevel(differences: Difference[]): Level | undefined {
  return LEVELS.find((level) => differences.some((difference) => difference.level === level));
}
