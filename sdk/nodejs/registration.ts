import * as pulumi from "@pulumi/pulumi";
import { type AnyKind, outputNames } from "../../provider/kinds/declaration";
import { PACKAGE_NAME } from "../../provider/tokens";
import { providerModule } from "./provider-module";

/**
 * The dynamic resource's constructor arguments, as `pulumi.dynamic.Resource` gives them to the
 * engine: its type, the provider module as `__provider`, outputs listed unset (the engine exposes
 * only keys of the inputs), secret inputs and outputs marked secret (a dynamic provider cannot
 * return secrets).
 */
export function registration(
  kind: AnyKind,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): [string, string, pulumi.Inputs, pulumi.CustomResourceOptions] {
  const inputs = args as Record<string, unknown>;
  const unset = Object.fromEntries(outputNames(kind).map((output) => [output, undefined]));
  const secrets = Object.fromEntries(
    kind.secretInputs
      .filter((input) => inputs[input] !== undefined)
      .map((input) => [input, pulumi.secret(inputs[input])]),
  );
  const options = {
    ...opts,
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...kind.secretOutputs],
  };
  const props = { ...unset, ...inputs, ...secrets, __provider: providerModule(kind.kind) };
  return [dynamicType(kind.name), name, props, options];
}

/** The type the engine gives a dynamic resource of the kind (what its URN holds). */
export function dynamicType(kindName: string): string {
  return `pulumi-nodejs:dynamic/${PACKAGE_NAME}:${kindName}`;
}
