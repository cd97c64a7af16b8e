import type * as pulumi from "@pulumi/pulumi";

/** The provider module in state (sdk/nodejs/stub.ts) calls its kind's handler; `configure` is shared. */
export type ResourceHandler = Required<
  Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/**
 * A dynamic provider's only channel for warnings is stderr (pulumi.log does not reach the CLI);
 * the native plugin, whose stderr the engine hides, redirects them.
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
 * Keeps an object that exists in state ("initialization failed"), so the next `up` updates it rather
 * than make a duplicate. It carries `__provider` from `inputs`, without which later calls cannot load.
 */
export function failedButRecorded(message: string, id: string, properties: object, inputs: object): Error {
  const { __provider } = inputs as { __provider?: unknown };
  const recorded = __provider === undefined ? properties : { ...properties, __provider };
  return Object.assign(new Error(message), { id, properties: recorded, reasons: [message] });
}
