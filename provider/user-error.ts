// The module, not @pulumi/pulumi's index: the native plugin bundles this file too.
import { RunError } from "@pulumi/pulumi/errors";

/**
 * A failure caused by what the program gave (an argument, a setting, a file): a RunError, which
 * Pulumi prints as its message alone, once, where any other error gets "failed with an unhandled
 * exception", its stack trace and its properties.
 */
export function userError(message: string): RunError {
  return withoutStack(new RunError(message));
}

/**
 * The stack cut to the message. Pulumi formats the stack of every failure it reports, a RunError's
 * too, though it prints none, and maps it through @pulumi/pulumi's source maps first: tens of
 * seconds for frames that say nothing about the user's mistake.
 */
export function withoutStack<E extends Error>(error: E): E {
  error.stack = `${error.name}: ${error.message}`;
  return error;
}
