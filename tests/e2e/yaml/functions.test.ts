import { functionReads } from "../lifecycles/function-reads";
import { yamlCallsProgram } from "../lifecycles/data-source-programs";
import { yamlStack } from "../harness/stack";

// Every data source invoked from a Pulumi YAML program (`fn::invoke`), served by the native
// plugin: the expectations of lifecycles/function-reads.ts.

functionReads(async (calls, emulator, options) => {
  const urls = { platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl };
  const program = await yamlStack("native-functions", yamlCallsProgram(calls, urls), options);
  return { ...program, setCalls: (next) => program.setProgram(yamlCallsProgram(next, urls)) };
});
