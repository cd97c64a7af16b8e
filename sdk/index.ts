export { Database } from "./database";
export type { DatabaseArgs } from "./database";
export { Workspace } from "./workspace";
export type { WorkspaceArgs } from "./workspace";
export { WorkspaceMember } from "./workspace-member";
export type { WorkspaceMemberArgs } from "./workspace-member";
