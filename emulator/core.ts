import { AdjustableClock } from "./clock";
import { FaultRegistry } from "./http/faults";
import { RequestLog } from "./http/request-log";
import { AccountsModel } from "./models/accounts";
import { AnalyticsModel } from "./models/analytics";
import { AppsModel } from "./models/apps";
import { BlobObjectsModel } from "./models/blob-objects";
import { DatabasesModel } from "./models/databases";
import { IdSource } from "./models/id-source";
import type { ModelContext } from "./models/model-context";
import type { ObjectIdForm } from "./models/rules";
import { RequestRate, type RequestRateLimit } from "./models/request-rate";
import { SnapshotsModel } from "./models/snapshots";
import { WorkspacesModel } from "./models/workspaces";
import { buildSeedData } from "./seed";
import type { EmulatorData } from "./state";
import { MemoryContentStore, type ContentStore } from "./store/content-store";
import type { StateStore } from "./store/state-store";

export interface Models {
  accounts: AccountsModel;
  workspaces: WorkspacesModel;
  apps: AppsModel;
  analytics: AnalyticsModel;
  snapshots: SnapshotsModel;
  databases: DatabasesModel;
  blobObjects: BlobObjectsModel;
  requestRate: RequestRate;
}

/** How an emulator is started, beyond where it keeps its state. */
export interface CoreSettings {
  /** The id form uploads start with, and return to at reset. */
  objectIds?: ObjectIdForm;
  /** An account-wide request rate; none unless given. */
  requestRate?: RequestRateLimit;
}

function createModels(ctx: ModelContext, contents: ContentStore, settings: CoreSettings): Models {
  const accounts = new AccountsModel(ctx);
  const workspaces = new WorkspacesModel(ctx);
  const snapshots = new SnapshotsModel(ctx);
  return {
    accounts,
    workspaces,
    apps: new AppsModel(ctx, workspaces),
    analytics: new AnalyticsModel(ctx),
    snapshots,
    databases: new DatabasesModel(ctx, accounts, snapshots),
    blobObjects: new BlobObjectsModel(ctx, contents, settings.objectIds ?? "suffixed"),
    requestRate: new RequestRate(settings.requestRate, ctx.clock),
  };
}

/**
 * Everything both servers share: one state document, one clock, one set of models, faults and the
 * request log. Reset swaps in a fresh seed and fresh models (so caches and rate windows go too).
 */
export class EmulatorCore {
  readonly clock = new AdjustableClock();
  readonly faults = new FaultRegistry();
  readonly requestLog = new RequestLog();
  private readonly ids = new IdSource();
  private data: EmulatorData;
  private current: Models;

  constructor(
    private readonly store: StateStore,
    private readonly contents: ContentStore = new MemoryContentStore(),
    private readonly settings: CoreSettings = {},
  ) {
    const loaded = store.load();
    this.data = loaded ?? buildSeedData(this.clock.now());
    if (!loaded) store.save(this.data);
    this.current = createModels({ data: this.data, clock: this.clock, ids: this.ids }, contents, settings);
  }

  get models(): Models {
    return this.current;
  }

  reset(): void {
    this.clock.restore();
    this.faults.reset();
    this.ids.reseed(undefined);
    this.requestLog.clear();
    this.data = buildSeedData(this.clock.now());
    this.contents.clear();
    this.current = createModels({ data: this.data, clock: this.clock, ids: this.ids }, this.contents, this.settings);
    this.store.save(this.data);
  }

  /**
   * One seed for the probability faults and for the ids the models hand out, until the next
   * reset: a run repeated with the same seed sends the same requests and meets the same faults.
   */
  seed(seed: string): void {
    this.faults.seed(seed);
    this.ids.reseed(seed);
  }

  /** Called after every API request that reached a handler. */
  persist(): void {
    this.store.save(this.data);
  }
}
