import type { z } from "zod";
import type { Visibility } from "../lifecycle/gone";
import type { Api } from "../lifecycle/settings-check";

/**
 * What a resource kind is, said once: the SDKs, schema, docs tables, check and diff derive from it;
 * its handler in provider/resources/<kind>/ holds only the calls to the API.
 */
export interface KindDeclaration<Inputs extends Fields = Fields, Outputs extends Fields = Fields> {
  /** The resource's type name: the SDK class, `squarecloud:<name>` in state. */
  name: string;
  /**
   * The handler the provider module in each resource's state loads. Part of the state format: a
   * kind, once released, keeps its key.
   */
  kind: string;
  /** The class's doc comment: what it is, what updates in place and what replaces. */
  description: string;
  /** What a program gives, with the rules `check` applies at preview. */
  inputs: Inputs;
  /**
   * What the provider reports beside the inputs (state holds both). A field named like an input
   * states what the output holds when that differs from what was given (an inferred MIME type).
   */
  outputs: Outputs;
  /**
   * Inputs the outputs leave out: the engine keeps them among the inputs only (an asset, an invite
   * code spent once).
   */
  notOutputs: readonly (keyof Inputs & string)[];
  /** Inputs a program passes that never appear in messages and are always stored encrypted. */
  secretInputs: readonly (keyof Inputs & string)[];
  /** Outputs the engine must encrypt in state. */
  secretOutputs: readonly ((keyof Inputs | keyof Outputs) & string)[];
  /** Inputs whose change replaces the object (for an operation: runs it again). */
  replaceOn: readonly (keyof Inputs & string)[];
  /** Inputs whose change the provider applies in place. A change of any other input does nothing. */
  updateOn: readonly (keyof Inputs & string)[];
  /**
   * Inputs compared by a rule of their own instead of as data (a set of ids, an option that is
   * off when left out); `lifecycle/diff.ts` applies them. A rule sees unknown values too.
   */
  changes?: { [K in keyof Inputs & string]?: ChangeRule };
  /**
   * Arguments the SDK class takes besides the inputs, turned into inputs by the class itself
   * (sdk/nodejs/hooks/<kind>.ts), e.g. a whole snapshot entry whose ids become inputs.
   */
  sdkArgs?: Fields;
  /**
   * How the API answers for one of the kind's objects that is gone, or hidden from the key:
   * lifecycle/kind-handler.ts checks every "not found" against it before dropping a resource.
   */
  visibility?: Visibility;
  /**
   * Set for a kind with an `adoptId` input: the noun its adoption messages use ("object"). The
   * handler then notes and refuses double holdings (lifecycle/holdings.ts) on its own.
   */
  adoption?: { noun: string };
  /** The APIs whose settings the check verifies at preview. */
  apis: readonly Api[];
  /** What `pulumi import` of the kind brings into state, or why it is refused. */
  import: ImportNote;
}

/** How `pulumi import` treats a kind: the native plugin follows it, docs/native.md's table shows it. */
export type ImportNote =
  /** The object is read by its id: what state then holds, and what the API cannot give back. */
  | { brings: string; leavesOut?: string }
  /** Refused before any request: why reading cannot describe the object, and what to do instead. */
  | { refused: string; instead: string };

/**
 * The import note of an operation: its id names an event, which reading cannot describe. `event`
 * says what the event did ("a move made once"), `declare` what to declare instead.
 */
export function operationImport(event: string, declare: string): ImportNote {
  return {
    refused: `an operation's id names ${event} by an \`up\`, not an object to read back`,
    instead: `there is nothing to import: declare ${declare}`,
  };
}

/**
 * What a change of one input does: nothing, an update in place, or a replacement. A rule may
 * answer "inPlace" for a replaceOn input (a database's version recorded for the first time).
 */
export type Change = "none" | "inPlace" | "replace";

/** How an input's change is judged, from the stored outputs and the new inputs. */
export type ChangeRule = (olds: Record<string, any>, news: Record<string, any>) => Change;

/** Any kind, for code that serves every kind (`keyof` makes a declaration's type invariant). */
export type AnyKind = KindDeclaration<any, any>;

/** A kind's fields: each a zod schema whose outermost layer carries `field()`'s description. */
export type Fields = Record<string, z.ZodType>;

/** What a field's metadata may say besides its description. */
export interface FieldNotes {
  /** The SDK's type for the field when the zod type cannot say it (an asset). */
  sdkType?: string;
  /** Set by the SDK itself from another argument, not given by programs. */
  sdkDerived?: boolean;
  /** Optional in the SDK class, which can fill it from another argument. */
  sdkOptional?: boolean;
  /**
   * A plain value in the TypeScript SDK, not an Input: a component reads it while it declares its
   * children, so it must be known when the program runs.
   */
  sdkPlain?: boolean;
  /**
   * The package schema's name for the object the field holds (its items', for a list): a zod
   * object has no name, and the schema's object types need one (`squarecloud:index:<name>`).
   */
  schemaType?: string;
  /** A data source's result field that holds a credential: secret in the package schema and in what the plugin returns. */
  secret?: boolean;
  /** Kept for a release, then removed: what to use instead (the package schema's `deprecationMessage`). */
  deprecation?: string;
}

/** A field with its one-line description (shown in the API reference and the docs' tables). */
export function field<T extends z.ZodType>(schema: T, description: string, notes: FieldNotes = {}): T {
  return schema.meta({ description: notes.secret ? `${SECRET} ${description}` : description, ...notes }) as T;
}

/** A field's description and notes. */
export function notesOf(schema: z.ZodType): FieldNotes & { description: string } {
  const meta = schema.meta() as (FieldNotes & { description?: string }) | undefined;
  if (meta?.description === undefined) throw new Error("a declared field has no description: declare it with field()");
  return meta as FieldNotes & { description: string };
}

/** The lists a kind leaves out when it has nothing in them. */
type ListsEmptyUnlessGiven = "notOutputs" | "secretInputs" | "secretOutputs" | "updateOn";

/**
 * A kind states only the lists it has something in; the declaration the rest of the code reads
 * has every list, the others empty. `replaceOn` is always stated: every kind says what replaces it.
 */
export function declareKind<Inputs extends Fields, Outputs extends Fields>(
  declaration: Omit<KindDeclaration<Inputs, Outputs>, ListsEmptyUnlessGiven> &
    Partial<Pick<KindDeclaration<Inputs, Outputs>, ListsEmptyUnlessGiven>>,
): KindDeclaration<Inputs, Outputs> {
  const kind = { notOutputs: [], secretInputs: [], secretOutputs: [], updateOn: [], ...declaration };
  return {
    ...kind,
    inputs: withListedFacts(kind.inputs, (name) => [
      kind.secretInputs.includes(name) ? SECRET : "",
      kind.replaceOn.includes(name) ? REPLACES : kind.updateOn.includes(name) ? IN_PLACE : "",
    ]),
    outputs: withListedFacts(kind.outputs, (name) => [kind.secretOutputs.includes(name) ? SECRET : "", ""]),
  };
}

/** What the lists say of a field, written into its description so no field text repeats them by hand. */
const SECRET = "Secret.";
const REPLACES = "A change replaces the resource.";
const IN_PLACE = "Changes in place.";

/** Each field's description between what its kind's lists say of it: [before, after], "" for nothing. */
function withListedFacts<F extends Fields>(fields: F, facts: (name: string) => [string, string]): F {
  const described = Object.entries(fields).map(([name, schema]) => {
    const [before, after] = facts(name);
    const { description, ...notes } = notesOf(schema);
    const text = [before, description, after].filter((part) => part !== "").join(" ");
    return [name, schema.meta({ ...notes, description: text })];
  });
  return Object.fromEntries(described) as F;
}

/** What a resource of the kind exposes: its inputs but those kept out of the outputs, and its outputs. */
export function outputNames(kind: AnyKind): string[] {
  const inputs = Object.keys(kind.inputs).filter((input) => !kind.notOutputs.includes(input));
  return [...new Set([...inputs, ...Object.keys(kind.outputs)])];
}

/** The inputs as the handler receives them after check. */
export type InputsOf<K> = K extends KindDeclaration<infer I, Fields> ? z.infer<z.ZodObject<I>> : never;

/** What state holds: the inputs as applied and what the provider reported. */
export type OutputsOf<K> =
  K extends KindDeclaration<infer I, infer O>
    ? Omit<z.infer<z.ZodObject<I>>, keyof O> & z.infer<z.ZodObject<O>>
    : never;

/** A resource made of other kinds' resources, declared by code rather than served by a handler. */
export interface ComponentDeclaration {
  /** The component's type name: `squarecloud:index:<name>`. */
  name: string;
  /** What it declares and how it changes. */
  description: string;
  inputs: Fields;
  outputs: Fields;
}
