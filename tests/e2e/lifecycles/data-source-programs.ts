import { programStack, yamlStack } from "../harness/stack";
import type { FunctionCall, FunctionsProgram, OpenFunctionsProgram } from "./data-source-reads";

/** The `open` of the data-source lifecycles for the TypeScript program (its calls in config `calls`). */
export const openTypeScriptReads: OpenFunctionsProgram = async (calls, options) => {
  const callsConfig = (next: Record<string, FunctionCall>) => ({ value: JSON.stringify(next) });
  const program = await programStack({
    ...options,
    program: "function-calls",
    config: { ...options.config, calls: callsConfig(calls) },
  });
  return { ...program, setCalls: (next) => program.stack.setConfig("calls", callsConfig(next)) };
};

/**
 * A Pulumi YAML program (served by the native plugin) exporting each call's result (`fn::invoke`)
 * under the call's key. With `bob` (its service's URLs) it declares the explicit provider `bob`,
 * its key from the secret config `bobKey`, for the calls made `via` it.
 */
export function yamlCallsProgram(calls: Record<string, FunctionCall>, bob?: { platformUrl: string; blobUrl: string }) {
  const invoke = ({ fn, args = {}, via }: FunctionCall) => ({
    "fn::invoke": {
      function: `squarecloud:index:${fn}`,
      arguments: args,
      ...(via ? { options: { provider: `\${${via}}` } } : {}),
    },
  });
  return {
    ...(bob
      ? {
          config: { bobKey: { type: "string", secret: true } },
          resources: { bob: { type: "pulumi:providers:squarecloud", properties: { apiKey: "${bobKey}", ...bob } } },
        }
      : {}),
    outputs: Object.fromEntries(Object.entries(calls).map(([key, call]) => [key, invoke(call)])),
  };
}

/** The `open` of the data-source lifecycles for a YAML program of the stack `label`, through the stack's provider alone. */
export function openYamlReads(label: string): OpenFunctionsProgram {
  return async (calls, options): Promise<FunctionsProgram> => {
    const program = await yamlStack(label, yamlCallsProgram(calls), options);
    return { ...program, setCalls: (next) => program.setProgram(yamlCallsProgram(next)) };
  };
}
