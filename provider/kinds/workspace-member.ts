import { z } from "zod";
import { ApiId, WorkspaceGroup } from "../client/payloads/platform";
import { isUnknown } from "../field-check";
import { declareKind, field, type InputsOf, type OutputsOf } from "./declaration";

export const workspaceMember = declareKind({
  name: "WorkspaceMember",
  kind: "workspaceMember",
  description: `One person's membership of a workspace, in a group (\`admin\`, \`maintain\`, \`manager\` or \`view\`).

The invitee fetches their personal \`inviteCode\` with their own key (GET
/v2/workspaces/members/code; single use, valid 5 minutes) and the owner passes it here from a
secret config value. The code is used once, to add them: afterwards a changed or removed
\`inviteCode\` changes nothing and makes no request. It is always stored encrypted, even when
given as a plain string. Set \`userId\` (recommended): the member added is checked against it
(a code of someone else fails, and that person is removed again), and a user who is already a
member is taken over without a code. \`group\` changes in place; a new \`workspaceId\` or \`userId\`
replaces the membership.`,
  inputs: {
    workspaceId: field(ApiId, "The workspace's id."),
    group: field(
      z.enum(WorkspaceGroup.options, {
        error:
          'must be one of "admin", "maintain", "manager" or "view" ("owner" cannot be given: a workspace\'s owner is the account that created it)',
      }),
      "`admin`, `maintain`, `manager` or `view`.",
    ),
    inviteCode: field(
      z
        .string({ error: "must be a string" })
        .regex(/^[0-9a-f]{32}$/, { error: "must be 32 hexadecimal characters (0-9, a-f), an invite code" })
        .optional(),
      "The invitee's personal code (single use, valid 5 minutes). Used only to add the member; afterwards it may change or go.",
    ),
    userId: field(
      ApiId.optional(),
      "The invitee's user id: checked against whoever the code adds, and used to take over a membership.",
    ),
  },
  outputs: {
    group: field(z.string(), "The group as the API reports it (drift shows here)."),
    userId: field(z.string(), "The member's user id, also when the input left it out."),
    name: field(z.string().optional(), "The member's display name."),
    joinedAt: field(z.string().optional(), "ISO 8601 time the member joined."),
    workspaceOwner: field(z.string().optional(), "User id of the workspace's owner."),
  },
  notOutputs: ["inviteCode"],
  secretInputs: ["inviteCode"],
  replaceOn: ["workspaceId", "userId"],
  updateOn: ["group"],
  changes: {
    // Left out, userId means "whoever the code added", which is who olds.userId recorded.
    userId: (olds, news) =>
      news.userId !== undefined && (isUnknown(news.userId) || news.userId !== olds.userId) ? "replace" : "none",
  },
  apis: ["platform"],
  import: {
    brings: "workspace, user, group",
    leavesOut: "the invite code (spent when they joined; not needed to keep the membership)",
  },
});

export type WorkspaceMemberInputs = InputsOf<typeof workspaceMember>;
/** What state holds for a member; never the invite code. */
export type WorkspaceMemberOutputs = Omit<OutputsOf<typeof workspaceMember>, "inviteCode">;
