import * as pulumi from "@pulumi/pulumi";
import type { AnyKind } from "../../provider/kinds/declaration";
import { PACKAGE_NAME } from "../../provider/tokens";
import { ProviderStub } from "./stub";
import { entryOf } from "../../provider/map-entry";

/** One serialized stub per kind, shared by every resource of that kind. */
const stubs = new Map<string, ProviderStub>();

/**
 * The dynamic resource's constructor arguments: outputs listed unset (the engine exposes only keys
 * of the inputs), secret inputs and outputs marked secret (a dynamic provider cannot return secrets).
 */
export function registration(
  kind: AnyKind,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): [ProviderStub, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  const inputs = args as Record<string, unknown>;
  const stub = entryOf(stubs, kind.kind, () => new ProviderStub(kind.kind));
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
  return [stub, name, { ...unset, ...inputs, ...secrets }, options, PACKAGE_NAME, kind.name];
}

/** The type the engine gives a dynamic resource of the kind (what its URN holds). */
export function dynamicType(kindName: string): string {
  return `pulumi-nodejs:dynamic/${PACKAGE_NAME}:${kindName}`;
}

/** What a resource of the kind exposes: its inputs but those kept out of the outputs, and its outputs. */
export function outputNames(kind: AnyKind): string[] {
  const inputs = Object.keys(kind.inputs).filter((input) => !kind.notOutputs.includes(input));
  return [...new Set([...inputs, ...Object.keys(kind.outputs)])];
}
