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
 * channel for warnings (pulumi.log does not reach the CLI from this process).
 */
export function warn(message: string): void {
  console.warn(`warning: ${message}`);
}
