import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EmulatorAdmin } from "./admin-client";
import { EmulatorCore } from "./core";
import type { RequestRateLimit } from "./models/request-rate";
import type { ObjectIdForm } from "./models/rules";
import { createApiServer } from "./http/server";
import { adminRoutes, blobRoutes, platformRoutes, publicContentRoutes, snapshotDownloadRoutes } from "./routes";
import { SEED_ACCOUNT_ORDER } from "./seed";
import { FileContentStore, MemoryContentStore } from "./store/content-store";
import { FileStateStore } from "./store/file-store";
import { MemoryStateStore } from "./store/memory-store";

export { EmulatorAdmin } from "./admin-client";
export type { CreatedAccount, Fault, FaultKind, FaultSpec, RequestCounters, RequestLogEntry } from "./admin-types";
export type { RequestRateLimit } from "./models/request-rate";
export type { ObjectIdForm } from "./models/rules";
export {
  SEED_ACCOUNTS,
  SEED_APPS,
  SEED_BLOB_OBJECTS,
  SEED_DATABASES,
  SEED_DATABASE_SNAPSHOT_VERSIONS,
  SEED_MEMORY_USED_MB,
  SEED_WORKSPACES,
  PLANS,
} from "./seed";

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  platformPort?: number;
  blobPort?: number;
  /** Keep state in <dataDir>/state.json across restarts; in memory when omitted. */
  dataDir?: string;
  /**
   * Serve the admin surface (/__emulator: reset, clock, faults, request log). Off by default: it
   * needs no key, so anyone who can reach the port could read the log or rewind the clock.
   */
  admin?: boolean;
  /**
   * "suffixed" (the default) ends an expiring upload's id in -ex<days>, as the reference's example does;
   * "plain" leaves that optional suffix out, for clients that must not rely on it. Seeded objects
   * keep their ids.
   */
  objectIds?: ObjectIdForm;
  /**
   * At most `requests` per `windowMs` per account, over every connection using its key; past it,
   * 429 RATE_LIMIT_EXCEEDED with Retry-After. None by default: the live limit is not published.
   */
  requestRate?: RequestRateLimit;
}

export interface SeededAccount {
  name: string;
  accountId: string;
  apiKey: string;
  email: string;
  plan: string;
}

export interface RunningEmulator {
  platformUrl: string;
  blobUrl: string;
  /** accounts[0] is the main demo account (big plan, apps, room for databases). */
  accounts: SeededAccount[];
  /** A client of the admin surface; its calls fail with 404 unless started with `admin: true`. */
  admin: EmulatorAdmin;
  close(): Promise<void>;
}

/** Starts both APIs (platform and blob) over one shared state. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const settings = { objectIds: options.objectIds, requestRate: options.requestRate };
  const core = options.dataDir
    ? new EmulatorCore(new FileStateStore(options.dataDir), new FileContentStore(options.dataDir), settings)
    : new EmulatorCore(new MemoryStateStore(), new MemoryContentStore(), settings);
  const admin = options.admin ? adminRoutes : [];
  const platform = createApiServer(core, platformRoutes, admin, snapshotDownloadRoutes);
  const blob = createApiServer(core, blobRoutes, admin, publicContentRoutes);
  try {
    await listen(platform, host, options.platformPort ?? 0);
    await listen(blob, host, options.blobPort ?? 0);
  } catch (error) {
    await Promise.all([stop(platform), stop(blob)]);
    throw error;
  }
  const platformUrl = urlOf(platform, host);
  return {
    platformUrl,
    blobUrl: urlOf(blob, host),
    accounts: SEED_ACCOUNT_ORDER.map((a) => ({ ...a })),
    admin: new EmulatorAdmin(platformUrl),
    close: async () => {
      await Promise.all([stop(platform), stop(blob)]);
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Closes idle keep-alive sockets too, so a test runner can exit right after close(). */
function stop(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const printable = host.includes(":") ? `[${host}]` : host;
  return `http://${printable}:${port}`;
}
