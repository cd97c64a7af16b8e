import type * as pulumi from "@pulumi/pulumi";

/** The provider module in state (sdk/nodejs/provider-module.ts) calls its kind's handler; `configure` is shared. */
export type ResourceHandler = Required<
  Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/**
 * Keeps an object that exists in state ("initialization failed"), so the next `up` updates it rather
 * than make a duplicate. It carries `__provider` from `inputs`, without which later calls cannot load.
 */
export function failedButRecorded(message: string, id: string, properties: object, inputs: object): Error {
  const { __provider } = inputs as { __provider?: unknown };
  const recorded = __provider === undefined ? properties : { ...properties, __provider };
  return Object.assign(new Error(message), { id, properties: recorded, reasons: [message] });
}
