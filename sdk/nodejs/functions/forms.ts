import * as pulumi from "@pulumi/pulumi";
import type { AsInputs } from "../inputs";
import { userError, withoutStack } from "../../../provider/user-error";
import { entryOf } from "../../../provider/map-entry";
import { type AnyFunction, withSecretsWrapped } from "../../../provider/functions/declaration";

/**
 * The Output form: the same read once its Inputs are known (unknown at preview, unknown result);
 * `reveal` makes credentials secret Outputs. A failure is a RunError, which Pulumi prints bare.
 */
export function outputForm<A extends unknown[], R, O = R>(
  read: (...args: A) => Promise<R>,
  reveal: (result: R) => O = (result) => result as unknown as O,
): (...args: { [I in keyof A]: AsInputs<NonNullable<A[I]>> }) => pulumi.Output<O> {
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
 * The Promise form: every failure a rejection, its stack cut to the message: SDK frames only, which
 * Pulumi would spend tens of seconds source-mapping before printing.
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

/** One RunError per failure, so reads failing for one shared reason (the settings) print it once. */
const runErrors = new WeakMap<Error, pulumi.RunError>();

function reported(error: Error): pulumi.RunError {
  return entryOf(runErrors, error, () => userError(error.message));
}
