import * as pulumi from "@pulumi/pulumi";

/**
 * A failure caused by what the program gave (an argument, a setting, a file): a RunError, which
 * Pulumi prints as its message alone, once, where any other error gets "failed with an unhandled
 * exception", its stack trace and its properties.
 */
export function userError(message: string): pulumi.RunError {
  return withoutStack(new pulumi.RunError(message));
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
