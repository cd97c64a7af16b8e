// Module by module: the index would bring the closure serializer and npm's libraries into the bundle.
import type { Inputs, Output } from "@pulumi/pulumi/output";
import {
  type Alias,
  type ComponentResourceOptions,
  DependencyProviderResource,
  DependencyResource,
  type ProviderResource,
  rootStackResource,
} from "@pulumi/pulumi/resource";
import { setAllConfig } from "@pulumi/pulumi/runtime/config";
import { serializeProperties, serializeResourceProperties } from "@pulumi/pulumi/runtime/rpc";
import { resetOptions } from "@pulumi/pulumi/runtime/settings";
import { engineAddress } from "./engine-address";
import { provproto, structproto } from "./wire";

/**
 * The steps of @pulumi/pulumi's provider/server.js `construct`, in its order: that class is not
 * exported, and borrowing its method would mean patching grpc-js's registration.
 */

/** What a component's code gives back: its URN, and the outputs the engine records as its state. */
export interface ComponentResult {
  urn: Output<string>;
  state: Inputs;
}

/** A component's code: declares the component and its children with the runtime. */
export type ComponentCode = (name: string, inputs: Inputs, opts: ComponentResourceOptions) => ComponentResult;

// Functions the SDK's server uses that @pulumi/pulumi's modules export but its typings leave out
// (internal). Required by literal paths, so that the plugin's bundle holds them.
const withLocalStorage = internal<<T>(work: () => Promise<T>) => Promise<T>>(
  require("@pulumi/pulumi/runtime/state"),
  "runtime/state",
  "withLocalStorage",
);
const awaitFeatureSupport = internal<() => Promise<void>>(
  require("@pulumi/pulumi/runtime/settings"),
  "runtime/settings",
  "awaitFeatureSupport",
);
const waitForRPCs = internal<() => Promise<void>>(
  require("@pulumi/pulumi/runtime/settings"),
  "runtime/settings",
  "waitForRPCs",
);
const deserializeInputs = internal<(inputs: unknown, dependencies: unknown) => Promise<Inputs>>(
  require("@pulumi/pulumi/provider/server"),
  "provider/server",
  "deserializeInputs",
);

/** An internal function of @pulumi/pulumi; the plugin fails at start, naming it, once an upgrade removes it. */
function internal<F>(exports: Record<string, unknown>, module: string, name: string): F {
  if (typeof exports[name] !== "function")
    throw new Error(`@pulumi/pulumi/${module} no longer exports ${name}, which the plugin's construct needs`);
  return exports[name] as F;
}

/** Answers once every child is registered; each construct has its own runtime state, so concurrent ones share none. */
export function construct(request: any, code: ComponentCode): Promise<unknown> {
  return withLocalStorage(async () => {
    resetOptions(
      request.getProject(),
      request.getStack(),
      request.getParallel(),
      // Where the runtime sends a component's log messages.
      engineAddress() ?? "",
      request.getMonitorendpoint(),
      request.getDryrun(),
      request.getOrganization(),
    );
    await awaitFeatureSupport();
    setAllConfig(Object.fromEntries(request.getConfigMap().entries()), request.getConfigsecretkeysList());
    const inputs = await deserializeInputs(request.getInputs(), request.getInputdependenciesMap());
    const result = code(request.getName(), inputs, optionsOf(request));

    const response = new provproto.ConstructResponse();
    response.setUrn(await urnOf(result));
    const [state, dependencies] = await serializeResourceProperties(
      `construct(${request.getType()}, ${request.getName()})`,
      result.state,
    );
    for (const [name, resources] of dependencies) {
      const urns = new provproto.ConstructResponse.PropertyDependencies();
      urns.setUrnsList(await Promise.all([...resources].map(urnOf)));
      response.getStatedependenciesMap().set(name, urns);
    }
    response.setState(structproto.Struct.fromJavaScript(state));
    await waitForRPCs();
    return response;
  });
}

/** A resource's URN, known even at preview, as the engine takes it. */
async function urnOf(resource: { urn: Output<string> }): Promise<string> {
  return (await serializeProperties("urn", { urn: resource.urn })).urn;
}

/** The component's resource options, as the program gave them to the engine. */
function optionsOf(request: any): ComponentResourceOptions {
  const providers: Record<string, ProviderResource> = {};
  for (const [pkg, reference] of request.getProvidersMap().entries())
    providers[pkg] = new DependencyProviderResource(reference);
  const deletedWith: string = request.getDeletedwith();
  return {
    parent: request.getParent() ? new DependencyResource(request.getParent()) : undefined,
    providers,
    dependsOn: request.getDependenciesList().map((urn: string) => new DependencyResource(urn)),
    aliases: request.getAliasesList().map(aliasOf),
    protect: request.getProtect(),
    ignoreChanges: request.getIgnorechangesList(),
    replaceOnChanges: request.getReplaceonchangesList(),
    customTimeouts: request.getCustomtimeouts()?.toObject(),
    retainOnDelete: request.getRetainondelete(),
    deletedWith: deletedWith ? new DependencyResource(deletedWith) : undefined,
  };
}

function aliasOf(alias: any): string | Alias {
  if (alias.hasUrn()) return alias.getUrn();
  const spec = alias.getSpec();
  return {
    ...(spec.getName() ? { name: spec.getName() } : {}),
    ...(spec.getProject() ? { project: spec.getProject() } : {}),
    ...(spec.getStack() ? { stack: spec.getStack() } : {}),
    ...(spec.hasParenturn()
      ? { parent: spec.getParenturn() }
      : spec.getNoparent()
        ? { parent: rootStackResource }
        : {}),
  };
}
