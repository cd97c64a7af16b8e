import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceApp, WorkspaceMember as Member } from "../provider/client/payloads/platform";
import type { WorkspaceInputs } from "../provider/schemas/workspace";
import { InputsOf } from "./inputs";
import { ProviderStub } from "./stub";

const provider = new ProviderStub("workspace");

export type WorkspaceArgs = InputsOf<WorkspaceInputs>;

/**
 * A workspace: a group of users who share applications. Its members are `WorkspaceMember`
 * resources.
 *
 * `applications` is the complete list of linked application ids, in any order: `pulumi up` links
 * what is missing and unlinks what is no longer listed (left out, links are not managed; `[]`
 * unlinks all). There is no rename endpoint: a new `name` REPLACES the workspace, which drops
 * every member and link, and every member then needs a fresh invite code; the preview warns.
 * `adoptId` takes over an existing workspace the caller owns. Only the owner's key can delete it.
 */
export class Workspace extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  /** User id of the owner. */
  declare readonly owner: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  /** Everyone in the workspace, the owner included, as of the last up or refresh. */
  declare readonly members: pulumi.Output<Member[]>;
  /**
   * The ids of the linked applications, as the API reports them after up; at preview, the
   * program's list (the same shape either way).
   */
  declare readonly applications: pulumi.Output<string[]>;
  /** The linked applications as the API reports them (id, name, ram, lang); unknown at preview. */
  declare readonly linkedApplications: pulumi.Output<WorkspaceApp[]>;
  declare readonly adoptId: pulumi.Output<string | undefined>;

  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    if (opts?.deleteBeforeReplace) {
      // A rename replaces the workspace: deleting the old one first would drop the whole team
      // before anyone could join the new one.
      throw new Error(
        `Workspace "${name}": deleteBeforeReplace is not allowed: a replacement (a new name) would delete the old ` +
          `workspace, with every member, before the members can join the new one. Leave it unset.`,
      );
    }
    // Outputs the provider computes are listed unset, so the engine exposes them on the resource.
    // Optional inputs too: an output exists only for keys present here.
    const outputs = { owner: undefined, createdAt: undefined, members: undefined, applications: undefined, linkedApplications: undefined, adoptId: undefined };
    super(provider, name, { ...outputs, ...args }, opts, "squarecloud", "Workspace");
  }
}
