import type { z } from "zod";
import { type Fields, notesOf } from "../kinds/declaration";
import { checkArguments } from "./arguments";
import type { Session } from "./session";

/**
 * A data source, said once: arguments and their rules, result (`field()`s; credentials noted
 * `secret`), read. Every SDK, the plugin's invoke, the schema and the docs' table come from it.
 */
export interface FunctionDeclaration<Args extends Fields = Fields, Result extends Fields = Fields> {
  /** The SDK's function name; the plugin serves it as `squarecloud:index:<name>`. */
  name: string;
  /** What it reads and what it costs: the SDK function's doc comment and the schema's description. */
  description: string;
  args: Args;
  /** Every argument optional, but one needed (an id or a name): TypeScript's `getX` then requires its args. */
  argsRequired?: true;
  result: Result;
  /**
   * The read, given checked arguments. `session` is made at its first use, so that a bad argument
   * is reported before a missing API key, as a resource's check is.
   */
  read(args: ArgsOf<Args>, session: () => Session): Promise<z.infer<z.ZodObject<Result>>>;
}

/** Any function, for code that serves every function (`read` makes a declaration's type invariant). */
// biome-ignore lint/suspicious/noExplicitAny: only `any` matches every function of an invariant type
export type AnyFunction = FunctionDeclaration<any, any>;

type ArgsOf<Args extends Fields> = z.infer<z.ZodObject<Args>>;

/** The arguments a program gives and the result it gets. */
export type FunctionArgs<F> = F extends FunctionDeclaration<infer A, Fields> ? ArgsOf<A> : never;
export type FunctionResult<F> = F extends FunctionDeclaration<Fields, infer R> ? z.infer<z.ZodObject<R>> : never;

export function declareFunction<Args extends Fields, Result extends Fields>(
  declaration: FunctionDeclaration<Args, Result>,
): FunctionDeclaration<Args, Result> {
  return declaration;
}

/** Checks the arguments (a failure names the function, the argument, the rule and the value), then reads. */
export function runFunction<Args extends Fields, Result extends Fields>(
  fn: FunctionDeclaration<Args, Result>,
  args: ArgsOf<Args>,
  session: () => Session,
): Promise<z.infer<z.ZodObject<Result>>> {
  checkArguments(fn.name, fn.args, args);
  return fn.read(args, session);
}

/** The fields of an object field or of a list of objects (a secret note may sit deeper); none for others. */
export function fieldsWithin(schema: z.ZodType): Fields | undefined {
  const def = schema._zod.def as unknown as {
    type: string;
    innerType?: z.ZodType;
    element?: z.ZodType;
    shape?: Fields;
  };
  if (def.type === "optional") return fieldsWithin(def.innerType!);
  if (def.type === "array") return fieldsWithin(def.element!);
  return def.type === "object" ? def.shape : undefined;
}

/** The values with each field the declaration notes as secret passed through `wrap`, at any depth. */
export function withSecretsWrapped(
  fields: Fields,
  values: Record<string, unknown>,
  wrap: (value: unknown) => unknown,
): Record<string, unknown> {
  const wrapped = (schema: z.ZodType | undefined, value: unknown): unknown => {
    if (schema === undefined || value === undefined) return value;
    if (notesOf(schema).secret) return wrap(value);
    const shape = fieldsWithin(schema);
    if (shape === undefined) return value;
    const within = (item: unknown) => withSecretsWrapped(shape, item as Record<string, unknown>, wrap);
    return Array.isArray(value) ? value.map(within) : within(value);
  };
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, wrapped(fields[name], value)]));
}
