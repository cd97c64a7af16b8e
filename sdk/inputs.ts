import * as pulumi from "@pulumi/pulumi";

/**
 * A resource's args: its provider-side input type with every field accepting an Input, and every
 * list accepting Inputs as its items (the engine resolves them), e.g. app ids from a data source.
 */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<ItemsAsInputs<T[K]>> };

type ItemsAsInputs<V> = V extends readonly (infer Item)[] ? pulumi.Input<Item>[] : V;

/**
 * Resource options with the given outputs marked secret, so the engine encrypts them in state
 * (a dynamic provider cannot return secrets itself).
 */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  secrets: readonly string[],
): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
}
