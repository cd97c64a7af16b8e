// Plain JSON (epoch ms for times), one document; caches and in-flight counters are ephemeral, as live.

export const STATE_FORMAT_VERSION = 1;

export interface EmulatorData {
  formatVersion: typeof STATE_FORMAT_VERSION;
  accounts: AccountRecord[];
  apps: AppRecord[];
  databases: DatabaseRecord[];
  databaseSnapshots: DatabaseSnapshotRecord[];
  appSnapshots: AppSnapshotRecord[];
  workspaces: WorkspaceRecord[];
  inviteCodes: InviteCodeRecord[];
  blobObjects: BlobObjectRecord[];
  /** Creation times of app snapshots per account: the daily quota and the 5 s rate read them. */
  snapshotCreations: Record<string, number[]>;
  /** Last accepted restore per database: one restore per 60 s. */
  lastRestoreAt: Record<string, number>;
}

export interface PlanRecord {
  name: string;
  memoryLimitMb: number;
  /** End of the current plan period, epoch ms. */
  duration: number;
  /** Blob storage included in the plan, bytes; 0 means the plan has no blob storage. */
  blobIncludedBytes: number;
}

export interface AccountRecord {
  id: string;
  name: string;
  email: string;
  apiKey: string;
  locale: string;
  createdAt: number;
  plan: PlanRecord;
}

export type DeploymentState = "pending" | "clone" | "success" | "error";

export interface DeploymentRecord {
  /** The deployed commit's SHA-1, 40 hex digits, as the live service and the official types give it. */
  id: string;
  /** A `clone` event names the branch it cloned (the official types); the other states carry none. */
  events: { state: DeploymentState; date: number; branch?: string }[];
}

export interface AppRecord {
  id: string;
  ownerId: string;
  name: string;
  desc: string;
  ram: number;
  lang: string;
  /** Empty for apps without a website (bots, workers). */
  domain: string;
  custom: string;
  cluster: string;
  createdAt: number;
  /** Files relative to the app root, "/"-separated, without a leading slash. */
  files: string[];
  deployments: DeploymentRecord[];
}

export type DatabaseType = "mongo" | "redis";

export interface DatabaseRecord {
  id: string;
  ownerId: string;
  name: string;
  type: DatabaseType;
  version: string;
  memory: number;
  cpu: number;
  port: number;
  cluster: string;
  status: "running" | "stopped";
  /** Only a hash: the password itself is shown once and never stored or readable again. */
  passwordSha256: string;
  /** Bumped by a certificate reset so the regenerated certificate differs. */
  certificateSerial: number;
  createdAt: number;
}

/** A snapshot's `size` is its archive's: the download serves that archive (models/snapshot-archives.ts). */
export interface DatabaseSnapshotRecord {
  databaseId: string;
  ownerId: string;
  versionId: string;
  modified: number;
}

export interface AppSnapshotRecord {
  appId: string;
  ownerId: string;
  /** The application's files when the snapshot was taken: what its archive holds. */
  files: string[];
  modified: number;
}

export type WorkspaceGroup = "owner" | "admin" | "maintain" | "manager" | "view";

export interface WorkspaceMemberRecord {
  userId: string;
  group: WorkspaceGroup;
  joinedAt: number;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  ownerId: string;
  createdAt: number;
  /** Includes the owner with group "owner". */
  members: WorkspaceMemberRecord[];
  appIds: string[];
}

export interface InviteCodeRecord {
  code: string;
  userId: string;
  expiresAt: number;
}

export interface BlobObjectRecord {
  id: string;
  accountId: string;
  name: string;
  prefix?: string;
  size: number;
  contentType: string;
  sha256: string;
  autoDownload: boolean;
  createdAt: number;
  expiresAt?: number;
}

export function emptyData(): EmulatorData {
  return {
    formatVersion: STATE_FORMAT_VERSION,
    accounts: [],
    apps: [],
    databases: [],
    databaseSnapshots: [],
    appSnapshots: [],
    workspaces: [],
    inviteCodes: [],
    blobObjects: [],
    snapshotCreations: {},
    lastRestoreAt: {},
  };
}
