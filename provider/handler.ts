import type * as pulumi from "@pulumi/pulumi";

/**
 * The lifecycle every resource kind implements. The serialized stub in sdk/ forwards each engine
 * call to the handler of its kind; `configure` is shared (runtime.ts).
 */
export type ResourceHandler = Required<
  Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/**
 * Pulumi prints what a dynamic provider writes to stderr under the resource; that is the only
 * channel for warnings there (pulumi.log does not reach the CLI from that process). The native
 * plugin, whose stderr the engine hides, sends them elsewhere with sendWarningsTo.
 */
let warningSink = (message: string) => console.warn(`warning: ${message}`);

export function warn(message: string): void {
  warningSink(message);
}

/** Every later warning goes to `sink` instead of stderr. */
export function sendWarningsTo(sink: (message: string) => void): void {
  warningSink = sink;
}

/**
 * An error that still records the resource in state. Once the object exists on the service,
 * losing track of it would let the next `up` create a duplicate. The dynamic-provider host turns
 * an error carrying `id` into the engine's "initialization failed" result, which keeps the
 * resource with `properties` and retries it through `update` on the next `up`. The recorded
 * properties carry the serialized provider (`__provider`) from the create's `inputs`, without
 * which later calls cannot load the provider: that wire detail stays here, out of the handlers.
 */
export function failedButRecorded(message: string, id: string, properties: object, inputs: object): Error {
  const { __provider } = inputs as { __provider?: unknown };
  const recorded = __provider === undefined ? properties : { ...properties, __provider };
  return Object.assign(new Error(message), { id, properties: recorded, reasons: [message] });
}
