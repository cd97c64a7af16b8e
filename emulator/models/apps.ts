import { posix } from "node:path";
import { iso } from "../clock";
import { apiError } from "../errors";
import type { AccountRecord, AppRecord } from "../state";
import type { ModelContext } from "./model-context";
import { APP_WRITERS, DEPLOYMENT_WINDOW_MS, DEPLOYMENTS_SHOWN } from "./rules";
import type { WorkspacesModel } from "./workspaces";

export type AppAccess = "read" | "write";

/**
 * Applications: who may see them (the owner, and members of a workspace that links them), their
 * listing and detail views, deployment history and the file-move operation.
 */
export class AppsModel {
  constructor(
    private readonly ctx: ModelContext,
    private readonly workspaces: WorkspacesModel,
  ) {}

  find(appId: string): AppRecord | undefined {
    return this.ctx.data.apps.find((a) => a.id === appId);
  }

  /**
   * The app if the caller may use it: owners always; workspace members read, and write when their
   * group allows it. Strangers get APP_NOT_FOUND so app ids are not probeable.
   */
  accessible(account: AccountRecord, appId: string, access: AppAccess): AppRecord {
    const app = this.find(appId);
    if (!app) throw apiError("APP_NOT_FOUND");
    if (app.ownerId === account.id) return app;
    const groups = this.workspaces.groupsOverApp(account.id, app.id);
    if (groups.length === 0) throw apiError("APP_NOT_FOUND");
    if (access === "write" && !groups.some((g) => APP_WRITERS.includes(g))) throw apiError("PERMISSION_DENIED");
    return app;
  }

  ownedBy(account: AccountRecord): AppRecord[] {
    return this.ctx.data.apps.filter((a) => a.ownerId === account.id);
  }

  /** Item of response.applications in /v2/users/me (`lang`). */
  listingView(app: AppRecord) {
    return {
      name: app.name,
      id: app.id,
      desc: app.desc,
      ram: app.ram,
      lang: app.lang,
      domain: app.domain,
      custom: app.custom,
      cluster: app.cluster,
      created_at: iso(app.createdAt),
    };
  }

  /** GET /v2/apps/{id}: note `language` here where the listing says `lang` (notes). */
  detailView(app: AppRecord) {
    return {
      id: app.id,
      name: app.name,
      desc: app.desc,
      owner: app.ownerId,
      cluster: app.cluster,
      ram: app.ram,
      language: app.lang,
      domain: app.domain,
      custom: app.custom,
      created_at: iso(app.createdAt),
    };
  }

  /** The last 10 deployments of the past 24 hours, newest first, each one's events earliest first. */
  deployments(app: AppRecord) {
    const now = this.ctx.clock.now();
    return app.deployments
      .filter((d) => {
        const started = d.events[0]?.date ?? 0;
        return started > now - DEPLOYMENT_WINDOW_MS && started <= now;
      })
      .sort((a, b) => (b.events[0]?.date ?? 0) - (a.events[0]?.date ?? 0))
      .slice(0, DEPLOYMENTS_SHOWN)
      .map((d) =>
        d.events.map((e) => ({
          id: d.id,
          state: e.state,
          date: iso(e.date),
          ...(e.branch ? { branch: e.branch } : {}),
        })),
      );
  }

  /** Paths relative to the app root (a leading "/" accepted); an existing destination is overwritten, as `mv` does. */
  moveFile(app: AppRecord, from: string, to: string): void {
    const source = normalizeAppPath(from);
    const target = normalizeAppPath(to);
    if (!app.files.includes(source)) throw apiError("FILE_NOT_FOUND");
    const targetDir = posix.dirname(target);
    const dirExists = targetDir === "." || app.files.some((f) => f.startsWith(`${targetDir}/`));
    if (!dirExists) throw apiError("DIRECTORY_NOT_FOUND");
    app.files = [...app.files.filter((f) => f !== source && f !== target), target].sort();
  }
}

function normalizeAppPath(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are what the rule rejects
  if (path.length === 0 || path.length > 512 || /[\u0000-\u001f\u007f\\]/.test(path)) throw apiError("INVALID_PATH");
  const normalized = posix.normalize(`/${path}`).slice(1);
  const escapes = path.split("/").includes("..");
  if (normalized === "" || normalized.endsWith("/") || escapes) throw apiError("INVALID_PATH");
  return normalized;
}
