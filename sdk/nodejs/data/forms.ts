import * as pulumi from "@pulumi/pulumi";
import type { InputsOf } from "../inputs";
import { userError, withoutStack } from "../../../provider/user-error";
import { entryOf } from "../../../provider/map-entry";
import { type AnyFunction, withSecretsWrapped } from "../../../provider/functions/declaration";

/**
 * The Output form of a data source: the same read, taking each of its arguments (args, options)
 * as Inputs, once they are known (during a preview with unknown arguments the result is unknown
 * too); an argument the Promise form may leave out, this form may leave out too. `reveal` turns
 * the plain result into what the program sees, e.g. credentials wrapped as secret Outputs. Secret
 * arguments or options make the whole result secret. A failure becomes a RunError, which Pulumi
 * prints as its message alone: the message says it all (see promiseForm).
 */
export function outputForm<A extends unknown[], R, O = R>(
  read: (...args: A) => Promise<R>,
  reveal: (result: R) => O = (result) => result as unknown as O,
): (...args: { [I in keyof A]: InputsOf<NonNullable<A[I]>> }) => pulumi.Output<O> {
  return (...args) =>
    pulumi.all(args).apply(async (known) => {
      try {
        return reveal(await read(...(known as unknown as A)));
      } catch (error) {
        throw error instanceof Error ? reported(error) : error;
      }
    });
}

/** The `reveal` of a result holding credentials: each field the declaration notes as secret becomes a secret Output. */
export function withSecretOutputs<O>(fn: AnyFunction): (result: object) => O {
  return (result) => withSecretsWrapped(fn.result, result as Record<string, unknown>, pulumi.secret) as O;
}

/**
 * The Promise form: every failure is a rejection (a missing API key included), and its stack is
 * cut to the message. A data source fails for its input, its configuration or the API, never for
 * where it was called from, and its stack holds only SDK frames, which the Pulumi runtime maps
 * through @pulumi/pulumi's source maps before printing: tens of seconds for nothing useful.
 */
export function promiseForm<A extends unknown[], R>(read: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await read(...args);
    } catch (error) {
      throw error instanceof Error ? withoutStack(error) : error;
    }
  };
}

/**
 * One RunError per failure: Pulumi reports an error once however many outputs it fails, so data
 * sources failing for one shared reason (their session's check of the settings) print it once.
 */
const runErrors = new WeakMap<Error, pulumi.RunError>();

function reported(error: Error): pulumi.RunError {
  return entryOf(runErrors, error, () => userError(error.message));
}
