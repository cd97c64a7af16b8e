import { type FunctionCall, functionReads } from "../lifecycles/function-reads";
import { yamlStack } from "../harness/stack";

// Every data source invoked from a Pulumi YAML program (`fn::invoke`), served by the native
// plugin: the expectations of lifecycles/function-reads.ts.

function callsProgram(calls: Record<string, FunctionCall>, urls: { platformUrl: string; blobUrl: string }) {
  const invoke = ({ fn, args = {}, via }: FunctionCall) => ({
    "fn::invoke": {
      function: `squarecloud:index:${fn}`,
      arguments: args,
      ...(via ? { options: { provider: `\${${via}}` } } : {}),
    },
  });
  return {
    config: { bobKey: { type: "string", secret: true } },
    resources: { bob: { type: "pulumi:providers:squarecloud", properties: { apiKey: "${bobKey}", ...urls } } },
    outputs: Object.fromEntries(Object.entries(calls).map(([key, call]) => [key, invoke(call)])),
  };
}

functionReads(async (calls, emulator, options) => {
  const urls = { platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl };
  const program = await yamlStack("native-functions", callsProgram(calls, urls), options);
  return { ...program, setCalls: (next) => program.setProgram(callsProgram(next, urls)) };
});
