import { typeToken } from "../tokens";
import { functions } from "../functions";
import { type AnyFunction, runFunction, withSecretsWrapped } from "../functions/declaration";
import { sessionOf } from "../functions/session";
import { providerConfig } from "../runtime";
import { type Props, provproto, secret, struct, unwrapSecrets, wrapSecrets } from "./wire";

/**
 * Invoke of a data source (`fn::invoke` of `squarecloud:index:getApp` in Pulumi YAML): the same
 * check, read and memo as the TypeScript SDK's `getApp` (provider/functions), with the settings
 * this provider was configured with (the stack's config, or an explicit provider's arguments).
 * Reads of one configuration share a session for the life of the plugin process, which serves one
 * provider: a program that reads the same thing twice makes one request, as in TypeScript.
 */

const byToken = new Map<string, AnyFunction>(functions.map((fn) => [typeToken(fn.name), fn]));

export async function invoke(request: {
  getTok(): string;
  getArgs(): { toJavaScript(): Props } | undefined;
}): Promise<unknown> {
  const token = request.getTok();
  const fn = byToken.get(token);
  if (!fn) throw new Error(`unknown function ${token}`);
  const args = unwrapSecrets(request.getArgs()?.toJavaScript() ?? {});
  let result: Props;
  try {
    result = await runFunction(fn, args.plain, () => sessionOf(providerConfig()));
  } catch (error) {
    throw named(fn, error);
  }
  // As in the TypeScript SDK's Output form: what was read with a secret argument is secret as a whole.
  const returned =
    args.secret.size > 0 ? wrapSecrets(result, Object.keys(result)) : withSecretsWrapped(fn.result, result, secret);
  const response = new provproto.InvokeResponse();
  response.setReturn(struct(returned));
  return response;
}

/**
 * The failure with the function's name in front, once: a bad argument's message already starts
 * with it, and keeps the exact text the TypeScript SDK gives. Messages come from the checks, the
 * configuration and the client, none of which ever puts a secret in one.
 */
function named(fn: AnyFunction, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.startsWith(`${fn.name}: `) ? message : `${fn.name}: ${message}`);
}
