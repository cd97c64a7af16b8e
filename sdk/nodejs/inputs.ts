import type * as pulumi from "@pulumi/pulumi";

/**
 * A data source's args in its Output form: every field accepting an Input, and every
 * list accepting Inputs as its items (the engine resolves them), e.g. app ids from a data source.
 */
export type AsInputs<T> = { [K in keyof T]: pulumi.Input<ItemsAsInputs<T[K]>> };

type ItemsAsInputs<V> = V extends readonly (infer Item)[] ? pulumi.Input<Item>[] : V;
