// The benchmark stack: the mix of lib/mix.ts for config `total`, as resources of ours
// (`variant: ours`) or as no-op resources of the same shape (`variant: floor`). Config
// `generation` renames the databases and regroups the members (the update step); the invitees'
// codes come as secret config `code_<invitee>`.
import * as pulumi from "@pulumi/pulumi";
import { BlobObject, Database, Workspace, WorkspaceMember } from "pulumi-squarecloud";
import { type FloorKind, FloorResource } from "../../lib/floor";
import { INVITEES, mixFor, names } from "../../lib/mix";

const config = new pulumi.Config();
const floor = config.require("variant") === "floor";
const generation = config.requireNumber("generation");
const mix = mixFor(config.requireNumber("total"));

/** One constructor per kind, so both variants build the very same graph. */
const make = {
  blobObject: (name: string, args: any) =>
    floor ? new FloorResource("blobObject", name, args) : new BlobObject(name, args),
  database: (name: string, args: any) => (floor ? new FloorResource("database", name, args) : new Database(name, args)),
  workspace: (name: string, args: any) =>
    floor ? new FloorResource("workspace", name, args) : new Workspace(name, args),
  workspaceMember: (name: string, args: any) =>
    floor ? new FloorResource("workspaceMember", name, args) : new WorkspaceMember(name, args),
} satisfies Record<FloorKind, (name: string, args: any) => pulumi.CustomResource>;

for (let i = 0; i < mix.blobs; i++) {
  make.blobObject(`blob${i}`, { ...names.blob(i), source: new pulumi.asset.FileAsset(names.blobFile(i)) });
}
for (let i = 0; i < mix.databases; i++) {
  make.database(`db${i}`, { name: names.database(i, generation), type: "redis", memory: 512, version: "7.4.5" });
}
const workspaces = Array.from({ length: mix.workspaces }, (_, i) =>
  make.workspace(`ws${i}`, { name: names.workspace(i) }),
);
for (let i = 0; i < mix.members; i++) {
  const invitee = INVITEES[i]!;
  make.workspaceMember(`member${i}`, {
    workspaceId: workspaces[i % workspaces.length]!.id,
    group: names.memberGroup(generation),
    inviteCode: config.requireSecret(`code_${invitee}`),
  });
}

export const resources = mix;
