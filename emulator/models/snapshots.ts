import { iso } from "../clock";
import { apiError } from "../errors";
import { seededInt, seededRandom } from "../random";
import type { AccountRecord, AppRecord, AppSnapshotRecord, DatabaseSnapshotRecord } from "../state";
import type { ModelContext } from "./model-context";
import { presignedKey } from "./presign";
import { SNAPSHOT_BASE_URL, SNAPSHOT_QUOTA_WINDOW_MS, SNAPSHOT_RATE_MS, dailySnapshotQuota } from "./rules";

export type SnapshotScope = "applications" | "databases";

/**
 * Snapshot listings (applications and databases) and on-demand application snapshots with the
 * account's limits: one per 5 s (KEEP_CALM) and (plan RAM / 256) * 2 per rolling 24 h.
 */
export class SnapshotsModel {
  constructor(private readonly ctx: ModelContext) {}

  createAppSnapshot(account: AccountRecord, app: AppRecord): { url: string; key: string } {
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
    const random = seededRandom(`snapshot:${app.id}:${now}`);
    this.ctx.data.appSnapshots.push({
      appId: app.id,
      ownerId: app.ownerId,
      size: seededInt(random, 400_000, 2_000_000),
      modified: now,
    });
    const objectPath = appSnapshotPath(app.ownerId, app.id);
    const key = presignedKey(objectPath, now);
    return { url: `${SNAPSHOT_BASE_URL}/${objectPath}?${key}`, key };
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

  /** Listing entries, newest first, each with a fresh pre-signed key to its archive. */
  private entries<S extends { size: number; modified: number }>(snapshots: S[], archiveOf: (snapshot: S) => Archive) {
    const now = this.ctx.clock.now();
    return newestFirst(snapshots).map((s) => {
      const archive = archiveOf(s);
      return {
        name: archive.belongsTo,
        size: s.size,
        modified: iso(s.modified),
        key: presignedKey(archive.path, now, archive.versionId),
      };
    });
  }
}

/** Where a snapshot's archive is stored, and the application or database it belongs to (an entry's `name`). */
interface Archive {
  belongsTo: string;
  path: string;
  versionId?: string;
}

function appArchive(snapshot: AppSnapshotRecord): Archive {
  return { belongsTo: snapshot.appId, path: appSnapshotPath(snapshot.ownerId, snapshot.appId) };
}

function databaseArchive(snapshot: DatabaseSnapshotRecord): Archive {
  const { databaseId, ownerId, versionId } = snapshot;
  return { belongsTo: databaseId, path: `databases/${ownerId}/${databaseId}.tar.gz`, versionId };
}

function appSnapshotPath(ownerId: string, appId: string): string {
  return `applications/${ownerId}/${appId}.zip`;
}

function newestFirst<T extends { modified: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.modified - a.modified);
}
