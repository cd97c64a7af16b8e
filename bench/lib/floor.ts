import * as pulumi from "@pulumi/pulumi";
import { type AnyKind, blobObject, database, workspace, workspaceMember } from "../../provider/kinds";
import { outputNames } from "../../provider/kinds/declaration";

/**
 * The engine's floor: dynamic resources with the inputs and outputs of ours whose provider does
 * nothing. The provider module is ours (sdk/nodejs/provider-module.ts) but for the package it loads
 * at call time, so the serialized module stored twice in each resource's state has the same length,
 * and per call the engine and the dynamic-provider host do the same work: only what our provider
 * does is left out.
 */
export type FloorKind = "blobObject" | "database" | "workspace" | "workspaceMember";

class FloorStub implements pulumi.dynamic.ResourceProvider {
  constructor(private readonly kind: string) {}

  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("squarecloud-bench-floor").configure(req);
  }
  check(olds: any, news: any) {
    return require("squarecloud-bench-floor").handlers[this.kind].check(olds, news);
  }
  diff(id: string, olds: any, news: any) {
    return require("squarecloud-bench-floor").handlers[this.kind].diff(id, olds, news);
  }
  create(inputs: any) {
    return require("squarecloud-bench-floor").handlers[this.kind].create(inputs);
  }
  read(id: string, props: any) {
    return require("squarecloud-bench-floor").handlers[this.kind].read(id, props);
  }
  update(id: string, olds: any, news: any) {
    return require("squarecloud-bench-floor").handlers[this.kind].update(id, olds, news);
  }
  delete(id: string, props: any) {
    return require("squarecloud-bench-floor").handlers[this.kind].delete(id, props);
  }
}

const stubs: Record<FloorKind, FloorStub> = {
  blobObject: new FloorStub("blobObject"),
  database: new FloorStub("database"),
  workspace: new FloorStub("workspace"),
  workspaceMember: new FloorStub("workspaceMember"),
};

/** Each kind's declaration: the floor lists the same outputs unset and marks the same secrets. */
const declarations: Record<FloorKind, AnyKind> = { blobObject, database, workspace, workspaceMember };

export class FloorResource extends pulumi.dynamic.Resource {
  constructor(
    kind: FloorKind,
    name: string,
    args: Record<string, pulumi.Input<unknown>>,
    opts?: pulumi.CustomResourceOptions,
  ) {
    const declaration = declarations[kind];
    const unset = Object.fromEntries(outputNames(declaration).map((key) => [key, undefined]));
    const type = kind[0]!.toUpperCase() + kind.slice(1);
    const secrets = Object.fromEntries(
      declaration.secretInputs.filter((key) => args[key] !== undefined).map((key) => [key, pulumi.secret(args[key])]),
    );
    const options = { ...opts, additionalSecretOutputs: [...declaration.secretOutputs] };
    super(stubs[kind], name, { ...unset, ...args, ...secrets }, options, "squarecloudfloor", type);
  }
}
