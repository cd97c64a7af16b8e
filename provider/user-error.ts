// The module, not @pulumi/pulumi's index: the native plugin bundles this file too.
import { RunError } from "@pulumi/pulumi/errors";

/** A failure caused by the program's input: Pulumi prints a RunError's message alone, without stack trace. */
export function userError(message: string): RunError {
  return withoutStack(new RunError(message));
}

/** Pulumi source-maps every failure's stack, printed or not: tens of seconds for frames that say nothing. */
export function withoutStack<E extends Error>(error: E): E {
  error.stack = `${error.name}: ${error.message}`;
  return error;
}
