import { iso } from "../clock";
import { apiError } from "../errors";
import type { AccountRecord, AppRecord, AppSnapshotRecord, DatabaseSnapshotRecord } from "../state";
import type { ModelContext } from "./model-context";
import { presignedKey, presignedKeyValid } from "./presign";
import { SNAPSHOT_QUOTA_WINDOW_MS, SNAPSHOT_RATE_MS, dailySnapshotQuota } from "./rules";
import { appSnapshotArchive, databaseSnapshotArchive } from "./snapshot-archives";

export type SnapshotScope = "applications" | "databases";

/**
 * Snapshot listings (applications and databases) and on-demand application snapshots with the
 * account's limits: one per 5 s (KEEP_CALM) and (plan RAM / 256) * 2 per rolling 24 h.
 */
export class SnapshotsModel {
  constructor(private readonly ctx: ModelContext) {}

  /** `downloadBaseUrl`: where this emulator serves snapshot archives, as the client reached it. */
  createAppSnapshot(account: AccountRecord, app: AppRecord, downloadBaseUrl: string): { url: string; key: string } {
    const now = this.ctx.clock.now();
    const history = (this.ctx.data.snapshotCreations[account.id] ?? []).filter(
      (at) => at > now - SNAPSHOT_QUOTA_WINDOW_MS && at <= now,
    );
    const last = history[history.length - 1];
    if (last !== undefined && now - last < SNAPSHOT_RATE_MS) throw apiError("KEEP_CALM");
    if (history.length >= dailySnapshotQuota(account.plan.memoryLimitMb)) {
      throw apiError("DAILY_SNAPSHOTS_LIMIT_REACHED");
    }
    this.ctx.data.snapshotCreations[account.id] = [...history, now];
    this.ctx.data.appSnapshots.push({ appId: app.id, ownerId: app.ownerId, files: [...app.files], modified: now });
    const objectPath = appSnapshotPath(app.ownerId, app.id);
    const key = presignedKey(objectPath, now);
    return { url: `${downloadBaseUrl}/${objectPath}?${key}`, key };
  }

  /** GET /v2/users/snapshots: every snapshot of the account's apps or databases, newest first. */
  forAccount(account: AccountRecord, scope: SnapshotScope) {
    return scope === "applications"
      ? this.entries(
          this.ctx.data.appSnapshots.filter((s) => s.ownerId === account.id),
          appArchive,
        )
      : this.entries(
          this.ctx.data.databaseSnapshots.filter((s) => s.ownerId === account.id),
          databaseArchive,
        );
  }

  forApp(appId: string) {
    return this.entries(
      this.ctx.data.appSnapshots.filter((s) => s.appId === appId),
      appArchive,
    );
  }

  forDatabase(databaseId: string) {
    return this.entries(
      this.ctx.data.databaseSnapshots.filter((s) => s.databaseId === databaseId),
      databaseArchive,
    );
  }

  findDatabaseVersion(databaseId: string, versionId: string): DatabaseSnapshotRecord | undefined {
    return this.ctx.data.databaseSnapshots.find(
      (s) => s.databaseId === databaseId && s.versionId.toLowerCase() === versionId.toLowerCase(),
    );
  }

  /**
   * The archive a pre-signed download link names: `applications/<owner>/<app>.zip` (the newest
   * snapshot) or `databases/<owner>/<database>.zip` (the key's versionId, else the newest), as the
   * official client builds them from a listing's key. A key not handed out for that path, or
   * expired, is 403 SNAPSHOT_ACCESS_DENIED.
   */
  download(objectPath: string, query: URLSearchParams): Buffer {
    const match = /^(applications|databases)\/([^/]+)\/([^/]+)\.zip$/.exec(objectPath);
    if (!match) throw apiError("SNAPSHOT_NOT_FOUND", "No snapshot archive at this path.");
    const [, scope, ownerId, owner] = match;
    if (!presignedKeyValid(objectPath, query, this.ctx.clock.now())) throw apiError("SNAPSHOT_ACCESS_DENIED");
    if (scope === "applications") {
      const [newest] = newestFirst(
        this.ctx.data.appSnapshots.filter((s) => s.ownerId === ownerId && s.appId === owner),
      );
      if (!newest) throw apiError("SNAPSHOT_NOT_FOUND", "No snapshot of this application.");
      return appSnapshotArchive(newest);
    }
    const versionId = query.get("versionId");
    const [chosen] = newestFirst(
      this.ctx.data.databaseSnapshots.filter(
        (s) => s.ownerId === ownerId && s.databaseId === owner && (!versionId || s.versionId === versionId),
      ),
    );
    if (!chosen) throw apiError("SNAPSHOT_NOT_FOUND");
    return databaseSnapshotArchive(chosen);
  }

  /** Listing entries, newest first, each with its archive's size and a fresh pre-signed key to it. */
  private entries<S extends { modified: number }>(snapshots: S[], archiveOf: (snapshot: S) => Archive) {
    const now = this.ctx.clock.now();
    return newestFirst(snapshots).map((s) => {
      const archive = archiveOf(s);
      return {
        name: archive.belongsTo,
        size: archive.bytes().length,
        modified: iso(s.modified),
        key: presignedKey(archive.path, now, archive.versionId),
      };
    });
  }
}

/** Where a snapshot's archive is served, its bytes, and the application or database it belongs to (an entry's `name`). */
interface Archive {
  belongsTo: string;
  path: string;
  versionId?: string;
  bytes(): Buffer;
}

function appArchive(snapshot: AppSnapshotRecord): Archive {
  return {
    belongsTo: snapshot.appId,
    path: appSnapshotPath(snapshot.ownerId, snapshot.appId),
    bytes: () => appSnapshotArchive(snapshot),
  };
}

function databaseArchive(snapshot: DatabaseSnapshotRecord): Archive {
  const { databaseId, ownerId, versionId } = snapshot;
  return {
    belongsTo: databaseId,
    path: `databases/${ownerId}/${databaseId}.zip`,
    versionId,
    bytes: () => databaseSnapshotArchive(snapshot),
  };
}

function appSnapshotPath(ownerId: string, appId: string): string {
  return `applications/${ownerId}/${appId}.zip`;
}

function newestFirst<T extends { modified: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.modified - a.modified);
}
