import { iso } from "../clock";
import { apiError } from "../errors";
import type { AccountRecord, AppRecord, WorkspaceGroup, WorkspaceRecord } from "../state";
import type { ModelContext } from "./model-context";
import {
  ASSIGNABLE_GROUPS,
  GROUP_MANAGERS,
  INVITE_CODE_PATTERN,
  INVITE_CODE_TTL_MS,
  WORKSPACE_APPS_LIMIT,
  WORKSPACE_MEMBERS_LIMIT,
  WORKSPACES_OWNED_LIMIT,
} from "./rules";

/** Non-members get WORKSPACE_NOT_FOUND, as the live service hides a workspace from them; members PERMISSION_DENIED. */
export class WorkspacesModel {
  constructor(private readonly ctx: ModelContext) {}

  listFor(account: AccountRecord): WorkspaceRecord[] {
    return this.ctx.data.workspaces.filter((w) => groupOf(w, account.id) !== undefined);
  }

  /** The workspace, if the caller belongs to it. */
  visibleTo(account: AccountRecord, workspaceId: string): WorkspaceRecord {
    const workspace = this.ctx.data.workspaces.find((w) => w.id === workspaceId);
    if (!workspace || groupOf(workspace, account.id) === undefined) throw apiError("WORKSPACE_NOT_FOUND");
    return workspace;
  }

  create(account: AccountRecord, name: string): WorkspaceRecord {
    const owned = this.ctx.data.workspaces.filter((w) => w.ownerId === account.id).length;
    if (owned >= WORKSPACES_OWNED_LIMIT) throw apiError("WORKSPACE_LIMIT_REACHED");
    const now = this.ctx.clock.now();
    const workspace: WorkspaceRecord = {
      id: this.ctx.ids.hex(24, `workspace ${account.id} ${name}`),
      name,
      ownerId: account.id,
      createdAt: now,
      members: [{ userId: account.id, group: "owner", joinedAt: now }],
      appIds: [],
    };
    this.ctx.data.workspaces.push(workspace);
    return workspace;
  }

  /** Members and app links go with the workspace; the applications themselves stay. */
  delete(account: AccountRecord, workspaceId: string): void {
    const workspace = this.ownedBy(account, workspaceId);
    this.ctx.data.workspaces = this.ctx.data.workspaces.filter((w) => w !== workspace);
  }

  leave(account: AccountRecord, workspaceId: string): void {
    const workspace = this.visibleTo(account, workspaceId);
    if (workspace.ownerId === account.id) throw apiError("CANNOT_LEAVE_OWNER");
    workspace.members = workspace.members.filter((m) => m.userId !== account.id);
  }

  /**
   * The caller's personal invite code: 32 hex, valid 5 minutes, single use. Asking again while a
   * code is still valid returns the same code, so a retried request does not orphan one.
   */
  inviteCode(account: AccountRecord): string {
    const now = this.ctx.clock.now();
    this.ctx.data.inviteCodes = this.ctx.data.inviteCodes.filter((c) => c.expiresAt > now);
    const current = this.ctx.data.inviteCodes.find((c) => c.userId === account.id);
    if (current) return current.code;
    const code = this.ctx.ids.hex(32, `invite code ${account.id}`);
    this.ctx.data.inviteCodes.push({ code, userId: account.id, expiresAt: now + INVITE_CODE_TTL_MS });
    return code;
  }

  /** The owner consumes an invitee's code; the code is spent only if the member is added. */
  addMember(account: AccountRecord, workspaceId: string, code: string, group: string): void {
    const workspace = this.ownedBy(account, workspaceId);
    const assigned = assignableGroup(group);
    const now = this.ctx.clock.now();
    const invite = INVITE_CODE_PATTERN.test(code)
      ? this.ctx.data.inviteCodes.find((c) => c.code === code && c.expiresAt > now)
      : undefined;
    if (!invite) throw apiError("INVALID_CODE");
    if (invite.userId === workspace.ownerId) throw apiError("CANNOT_INVITE_OWNER");
    if (groupOf(workspace, invite.userId) !== undefined) throw apiError("MEMBER_ALREADY_ADDED");
    if (workspace.members.length >= WORKSPACE_MEMBERS_LIMIT) throw apiError("MEMBERS_LIMIT_REACHED");
    workspace.members.push({ userId: invite.userId, group: assigned, joinedAt: now });
    this.ctx.data.inviteCodes = this.ctx.data.inviteCodes.filter((c) => c !== invite);
  }

  changeGroup(account: AccountRecord, workspaceId: string, memberId: string, group: string): void {
    const workspace = this.visibleTo(account, workspaceId);
    if (!GROUP_MANAGERS.includes(groupOf(workspace, account.id) as WorkspaceGroup)) throw apiError("PERMISSION_DENIED");
    const assigned = assignableGroup(group);
    const member = this.memberOf(workspace, memberId);
    member.group = assigned;
  }

  removeMember(account: AccountRecord, workspaceId: string, memberId: string): void {
    const workspace = this.ownedBy(account, workspaceId);
    this.memberOf(workspace, memberId);
    workspace.members = workspace.members.filter((m) => m.userId !== memberId);
  }

  linkApp(account: AccountRecord, workspaceId: string, app: AppRecord | undefined): void {
    const workspace = this.ownedBy(account, workspaceId);
    // Only the caller's own apps can be linked; anyone else's app is simply not found.
    if (!app || app.ownerId !== account.id) throw apiError("APP_NOT_FOUND");
    if (workspace.appIds.includes(app.id)) throw apiError("APP_ALREADY_IN_WORKSPACE");
    if (workspace.appIds.length >= WORKSPACE_APPS_LIMIT) throw apiError("APPLICATIONS_LIMIT_REACHED");
    workspace.appIds.push(app.id);
  }

  unlinkApp(account: AccountRecord, workspaceId: string, appId: string): void {
    const workspace = this.ownedBy(account, workspaceId);
    if (!workspace.appIds.includes(appId)) throw apiError("APP_NOT_FOUND");
    workspace.appIds = workspace.appIds.filter((id) => id !== appId);
  }

  /** The groups the user holds over an app through the workspaces that link it. */
  groupsOverApp(userId: string, appId: string): WorkspaceGroup[] {
    return this.ctx.data.workspaces
      .filter((w) => w.appIds.includes(appId))
      .map((w) => groupOf(w, userId))
      .filter((g): g is WorkspaceGroup => g !== undefined);
  }

  view(workspace: WorkspaceRecord) {
    const { accounts, apps } = this.ctx.data;
    return {
      id: workspace.id,
      name: workspace.name,
      owner: workspace.ownerId,
      members: workspace.members.map((m) => ({
        id: m.userId,
        name: accounts.find((a) => a.id === m.userId)?.name ?? "",
        group: m.group,
        joinedAt: iso(m.joinedAt),
      })),
      applications: workspace.appIds
        .map((id) => apps.find((a) => a.id === id))
        .filter((a): a is AppRecord => a !== undefined)
        .map((a) => ({ id: a.id, name: a.name, ram: a.ram, lang: a.lang })),
      createdAt: iso(workspace.createdAt),
    };
  }

  creationView(workspace: WorkspaceRecord) {
    return { id: workspace.id, owner: workspace.ownerId, name: workspace.name, createdAt: iso(workspace.createdAt) };
  }

  private ownedBy(account: AccountRecord, workspaceId: string): WorkspaceRecord {
    const workspace = this.visibleTo(account, workspaceId);
    if (workspace.ownerId !== account.id) throw apiError("PERMISSION_DENIED");
    return workspace;
  }

  private memberOf(workspace: WorkspaceRecord, memberId: string) {
    const member = workspace.members.find((m) => m.userId === memberId);
    if (!member) throw apiError("MEMBER_NOT_FOUND");
    if (member.group === "owner") throw apiError("CANNOT_EDIT_OWNER");
    return member;
  }
}

function groupOf(workspace: WorkspaceRecord, userId: string): WorkspaceGroup | undefined {
  return workspace.members.find((m) => m.userId === userId)?.group;
}

/** "owner" exists but cannot be handed out through the API. */
function assignableGroup(group: string): WorkspaceGroup {
  const found = ASSIGNABLE_GROUPS.find((g) => g === group);
  if (!found) throw apiError("INVALID_GROUP");
  return found;
}
