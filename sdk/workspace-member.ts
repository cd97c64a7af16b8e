import * as pulumi from "@pulumi/pulumi";
import { WORKSPACE_MEMBER_SECRET_INPUTS } from "../provider/schemas/workspace";
import type { WorkspaceMemberInputs } from "../provider/schemas/workspace";
import { InputsOf, withSecretOutputs } from "./inputs";
import { ProviderStub } from "./stub";

const provider = new ProviderStub("workspaceMember");

export type WorkspaceMemberArgs = InputsOf<WorkspaceMemberInputs>;

/**
 * One person's membership of a workspace, in a group (`admin`, `maintain`, `manager` or `view`).
 *
 * The invitee fetches their personal `inviteCode` with their own key (GET
 * /v2/workspaces/members/code; single use, valid 5 minutes) and the owner passes it here from a
 * secret config value. The code is used once, to add them: afterwards a changed or removed
 * `inviteCode` changes nothing and makes no request. It is always stored encrypted, even when
 * given as a plain string. Set `userId` (recommended): the member added is checked against it
 * (a code of someone else fails, and that person is removed again), and a user who is already a
 * member is taken over without a code. `group` changes in place; a new `workspaceId` or `userId`
 * replaces the membership.
 */
export class WorkspaceMember extends pulumi.dynamic.Resource {
  declare readonly workspaceId: pulumi.Output<string>;
  /** The group as the API reports it. */
  declare readonly group: pulumi.Output<string>;
  /** The member's user id (also when the input left it out). */
  declare readonly userId: pulumi.Output<string>;
  /** The member's display name. */
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly joinedAt: pulumi.Output<string | undefined>;
  /** User id of the workspace's owner. */
  declare readonly workspaceOwner: pulumi.Output<string | undefined>;

  constructor(name: string, args: WorkspaceMemberArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs the provider computes are listed unset, so the engine exposes them on the resource.
    const outputs = { userId: undefined, name: undefined, joinedAt: undefined, workspaceOwner: undefined };
    // A secret input is encrypted in state; a plain string given by mistake must be, too.
    const inviteCode = args.inviteCode === undefined ? undefined : pulumi.secret(args.inviteCode);
    super(
      provider,
      name,
      { ...outputs, ...args, inviteCode },
      withSecretOutputs(opts, WORKSPACE_MEMBER_SECRET_INPUTS),
      "squarecloud",
      "WorkspaceMember",
    );
  }
}
