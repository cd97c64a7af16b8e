import { typeToken } from "../tokens";
import { functions } from "../functions";
import { type AnyFunction, runFunction, withSecretsWrapped } from "../functions/declaration";
import { sessionOf } from "../functions/session";
import { providerConfig } from "../runtime";
import { type Props, provproto, secret, struct, unwrapSecrets, wrapSecrets } from "./wire";

/**
 * The same check, read and memo as the TypeScript SDK's data sources; one session per configuration
 * for the process, so a program that reads the same thing twice makes one request.
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

/** The function's name in front, once: a bad argument's message already starts with it, as in TypeScript. */
function named(fn: AnyFunction, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.startsWith(`${fn.name}: `) ? message : `${fn.name}: ${message}`);
}
