import { z } from "zod";
import { ApiId, WorkspaceApp, WorkspaceGroup, WorkspaceMember } from "../client/payloads/platform";

/** The Workspace and WorkspaceMember resources' inputs: the single source of their rules and types. */

export const workspaceInputFields = {
  name: z.string({ error: "must be a string" }).regex(/^[a-zA-Z0-9_]{3,32}$/, {
    error: "must be 3 to 32 characters of the letters a-z, A-Z, the digits 0-9 and '_'",
  }),
  /**
   * The applications linked to the workspace, authoritative and in any order. Left out, links are
   * not managed (whatever is linked stays); `[]` means no links.
   */
  applications: z.array(ApiId, { error: "must be a list of application ids" }).optional(),
  /** Take over this existing workspace (owned by the caller) at creation; read only then. */
  adoptId: ApiId.optional(),
};

export type WorkspaceInputs = z.infer<z.ZodObject<typeof workspaceInputFields>>;

/** What state holds for a workspace: the API's view of it. */
export interface WorkspaceOutputs {
  name: string;
  adoptId?: string;
  /** User id of the owner: only its key may delete the workspace or manage members. */
  owner?: string;
  createdAt?: string;
  /** Everyone in it, the owner included, as the API reports them. */
  members?: WorkspaceMember[];
  /**
   * The ids of the linked applications as the API reports them: the input's shape, so the output
   * reads the same at preview (where the engine shows the inputs) as after up.
   */
  applications?: string[];
  /** The linked applications as the API reports them (id, name, ram, lang); unknown at preview. */
  linkedApplications?: WorkspaceApp[];
}

/** Outputs as any version stored them: 0.1.0 kept the API's application objects in `applications`. */
export type StoredWorkspaceOutputs = Omit<WorkspaceOutputs, "applications"> & { applications?: (string | WorkspaceApp)[] };

export const workspaceMemberInputFields = {
  workspaceId: ApiId,
  group: z.enum(WorkspaceGroup.options, {
    error: 'must be one of "admin", "maintain", "manager" or "view" ("owner" cannot be given: a workspace\'s owner is the account that created it)',
  }),
  /**
   * Secret: the invitee's personal code, single use, valid 5 minutes. Used only when the member is
   * added; once they joined it is spent and may change or go without any effect.
   */
  inviteCode: z
    .string({ error: "must be a string" })
    .regex(/^[0-9a-f]{32}$/, { error: "must be 32 hexadecimal characters (0-9, a-f), an invite code" })
    .optional(),
  /** The invitee's user id: checked against whoever the code adds, and used to take over a membership. */
  userId: ApiId.optional(),
};

export type WorkspaceMemberInputs = z.infer<z.ZodObject<typeof workspaceMemberInputFields>>;

/** Inputs whose values never appear in check messages. */
export const WORKSPACE_MEMBER_SECRET_INPUTS = ["inviteCode"] as const;

/** What state holds for a member; never the invite code. */
export interface WorkspaceMemberOutputs {
  workspaceId: string;
  /** The group as the API reports it (drift shows here). */
  group: string;
  /** The member's user id, also when the input left it out. */
  userId: string;
  /** The member's display name. */
  name?: string;
  joinedAt?: string;
  /** The workspace's owner: a "not found" with another account's key is not a removal. */
  workspaceOwner?: string;
}
