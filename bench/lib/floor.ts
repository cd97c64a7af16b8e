import * as pulumi from "@pulumi/pulumi";
import { DATABASE_SECRET_OUTPUTS } from "../../provider/schemas/database";
import { WORKSPACE_MEMBER_SECRET_INPUTS } from "../../provider/schemas/workspace";
import { withSecretOutputs } from "../../sdk/inputs";

/**
 * The engine's floor: dynamic resources with the inputs and outputs of ours whose provider does
 * nothing. The stub is ours (sdk/stub.ts) but for the package it loads at call time, so the
 * serialized stub stored twice in each resource's state has the same length, and per call the
 * engine and the dynamic-provider host do the same work: only what our provider does is left out.
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

/** The outputs each kind of ours declares unset, and its secrets, as the SDK classes do. */
const declared: Record<FloorKind, { outputs: string[]; secrets: readonly string[] }> = {
  blobObject: {
    outputs: ["mimeType", "url", "size", "createdAt", "expiresAt", "sha256", "prefix", "expireDays", "securityHash", "autoDownload", "adoptId"],
    secrets: [],
  },
  database: {
    outputs: ["owner", "cpu", "cluster", "password", "certificate", "connectionUrl", "adoptId", "passwordRotation"],
    secrets: DATABASE_SECRET_OUTPUTS,
  },
  workspace: { outputs: ["owner", "createdAt", "members", "applications", "adoptId"], secrets: [] },
  workspaceMember: { outputs: ["userId", "name", "joinedAt", "workspaceOwner"], secrets: WORKSPACE_MEMBER_SECRET_INPUTS },
};

export class FloorResource extends pulumi.dynamic.Resource {
  constructor(kind: FloorKind, name: string, args: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    const unset = Object.fromEntries(declared[kind].outputs.map((key) => [key, undefined]));
    const type = kind[0]!.toUpperCase() + kind.slice(1);
    super(stubs[kind], name, { ...unset, ...args }, withSecretOutputs(opts, declared[kind].secrets), "squarecloudfloor", type);
  }
}
