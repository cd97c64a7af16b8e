import type { Visibility } from "../../lifecycle/owner";

/**
 * Only a workspace's owner may delete it or manage its members and links. Another account's key
 * gets PERMISSION_DENIED (a member's) or WORKSPACE_NOT_FOUND (anyone else's): for workspaces and
 * memberships, neither is taken for a deletion unless the key is the owner's (see confirmGone).
 */
export const WORKSPACE_VISIBILITY: Visibility = { notFound: "WORKSPACE_NOT_FOUND", deniedToOthers: true };
