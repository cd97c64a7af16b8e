import Module from "node:module";
import * as path from "node:path";
import { database } from "../../../provider/kinds/database";
import { providerModule } from "../../../sdk/nodejs/provider-module";
import { repoRoot } from "../../install-script";

// The module each resource carries as `__provider`, loaded as the engine's dynamic-provider process
// loads it (@pulumi/pulumi's cmd/dynamic-provider: compiled from the string, modules resolved from
// the project's directory), must hand every call to its kind's handler in pulumi-squarecloud/provider.

/** A module compiled from `text` in the project's directory, as require-from-string makes it. */
function moduleFromString(text: string): Module {
  const made = new Module("__provider") as Module & { _compile(code: string, file: string): void };
  made.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(repoRoot);
  made._compile(text, path.join(repoRoot, "__provider.js"));
  return made;
}

test("the provider module hands each call, with its arguments, to its kind's handler and configure to the provider's", async () => {
  const loaded = moduleFromString(providerModule(database.kind));
  // Through the module's own require (Node's, not jest's): the instances its calls reach.
  const provider = loaded.require("pulumi-squarecloud/provider");
  const runtime = loaded.require(path.join(repoRoot, "dist", "provider", "runtime.js"));
  const calls: unknown[][] = [];
  const record =
    (call: string) =>
    (...args: unknown[]) => {
      calls.push([call, ...args]);
      return call;
    };
  const [handler, configure] = [provider.handlers[database.kind], runtime.configure];
  provider.handlers[database.kind] = Object.fromEntries(
    ["check", "diff", "create", "read", "update", "delete"].map((call) => [call, record(call)]),
  );
  runtime.configure = record("configure");
  try {
    const stub = loaded.exports.handler();
    expect(Object.keys(stub).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    const answers = [
      await stub.configure({ config: "c" }),
      await stub.check("olds", "news"),
      await stub.diff("id", "olds", "news"),
      await stub.create("inputs"),
      await stub.read("id", "props"),
      await stub.update("id", "olds", "news"),
      await stub.delete("id", "props"),
    ];
    expect(answers).toEqual(["configure", "check", "diff", "create", "read", "update", "delete"]);
    expect(calls).toEqual([
      ["configure", { config: "c" }],
      ["check", "olds", "news"],
      ["diff", "id", "olds", "news"],
      ["create", "inputs"],
      ["read", "id", "props"],
      ["update", "id", "olds", "news"],
      ["delete", "id", "props"],
    ]);
  } finally {
    provider.handlers[database.kind] = handler;
    runtime.configure = configure;
  }
});
