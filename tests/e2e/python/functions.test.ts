import type { FunctionCall } from "../lifecycles/data-source-reads";
import { functionReads } from "../lifecycles/function-reads";
import { pythonStack } from "../harness/stack";

// Every data source read from a Pulumi Python program with the generated SDK, served by the native
// plugin: the expectations of lifecycles/function-reads.ts, read with each function's Output form
// (`get_app_output`), and the same reads with its plain form (`get_app`) giving the same values.

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The call in Python: `squarecloud.get_app<suffix>(id="...", opts=...)`. */
function pythonCall({ fn, args = {}, via }: FunctionCall, suffix: "" | "_output"): string {
  const options = suffix ? "InvokeOutputOptions" : "InvokeOptions";
  const params = [
    ...Object.entries(args).map(([name, value]) => `${snakeCase(name)}=${JSON.stringify(value)}`),
    ...(via ? [`opts=pulumi.${options}(provider=${via})`] : []),
  ];
  return `squarecloud.${snakeCase(fn)}${suffix}(${params.join(", ")})`;
}

function callsProgram(calls: Record<string, FunctionCall>, urls: { platformUrl: string; blobUrl: string }): string {
  const entries = Object.entries(calls);
  return `import pulumi
import pulumi_squarecloud as squarecloud

bob = squarecloud.Provider("bob", api_key=pulumi.Config().require_secret("bobKey"), platform_url=${JSON.stringify(urls.platformUrl)}, blob_url=${JSON.stringify(urls.blobUrl)})
${entries.map(([key, call]) => `pulumi.export(${JSON.stringify(key)}, ${pythonCall(call, "_output")})`).join("\n")}

# The plain forms, secret as a whole: they give up the secretness of a snapshot's key.
pulumi.export("plainForms", pulumi.Output.secret({
${entries.map(([key, call]) => `    ${JSON.stringify(key)}: ${pythonCall(call, "")},`).join("\n")}
}))
`;
}

const reads = functionReads(async (calls, emulator, options) => {
  const urls = { platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl };
  const program = await pythonStack("python-functions", callsProgram(calls, urls), options);
  return { ...program, setCalls: (next) => program.setProgram(callsProgram(next, urls)) };
});

test("each function's plain form reads what its Output form reads", () => {
  const { plainForms, ...outputForms } = reads.outputs();
  expect(plainForms).toEqual(outputForms);
});
