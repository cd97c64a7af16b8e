import { MINUTE_MS, DAY_MS, iso } from "../clock";
import { apiError } from "../errors";
import { derivedHex, randomBase36, randomPort, seededRandom, sha256Hex } from "../random";
import type { AccountRecord, DatabaseRecord, DatabaseType } from "../state";
import type { AccountsModel } from "./accounts";
import type { ModelContext } from "./model-context";
import { DATABASE_MIN_MEMORY_MB, RESTORE_RATE_MS, cpuFor } from "./rules";
import type { SnapshotsModel } from "./snapshots";

export interface CreateDatabaseInput {
  name: string;
  memory: number;
  type: DatabaseType;
  version: string;
}

export interface UpdateDatabaseInput {
  name?: string;
  ram?: number;
}

const METRICS_STEP_MS = 5 * MINUTE_MS;
const METRICS_WINDOW_MS = DAY_MS;
const SCHEMES: Record<DatabaseType, string> = { mongo: "mongodb", redis: "redis" };

/** The record keeps only the password's hash, so no read after creation or reset can leak it. */
export class DatabasesModel {
  constructor(
    private readonly ctx: ModelContext,
    private readonly accounts: AccountsModel,
    private readonly snapshots: SnapshotsModel,
  ) {}

  /** Databases are private to their owner: anyone else gets DATABASE_NOT_FOUND. */
  ownedBy(account: AccountRecord, databaseId: string): DatabaseRecord {
    const database = this.ctx.data.databases.find((d) => d.id === databaseId && d.ownerId === account.id);
    if (!database) throw apiError("DATABASE_NOT_FOUND");
    return database;
  }

  listFor(account: AccountRecord): DatabaseRecord[] {
    return this.ctx.data.databases.filter((d) => d.ownerId === account.id);
  }

  create(account: AccountRecord, input: CreateDatabaseInput) {
    requireMinimumMemory(input.type, input.memory);
    this.accounts.reserveMemory(account, input.memory);
    const password = randomBase36(24);
    const database: DatabaseRecord = {
      id: this.ctx.ids.hex(32, `database ${account.id} ${input.name}`),
      ownerId: account.id,
      name: input.name,
      type: input.type,
      version: input.version,
      memory: input.memory,
      cpu: cpuFor(input.memory),
      port: randomPort(),
      cluster: account.plan.name === "free" ? "florida-free-1" : "florida-1",
      status: "running",
      passwordSha256: sha256Hex(password),
      certificateSerial: 1,
      createdAt: this.ctx.clock.now(),
    };
    this.ctx.data.databases.push(database);
    // The listing shape plus the secrets, which only this response ever carries.
    return {
      ...this.listingView(database),
      password,
      certificate: certificateFor(database),
      connection_url: connectionUrl(database, password),
    };
  }

  /** Lowering RAM frees plan memory, so the engine minimum is the one limit it can meet. */
  update(account: AccountRecord, database: DatabaseRecord, input: UpdateDatabaseInput): void {
    if (input.ram !== undefined) {
      requireMinimumMemory(database.type, input.ram);
      const extra = input.ram - database.memory;
      if (extra > 0) this.accounts.reserveMemory(account, extra);
    }
    if (input.name !== undefined) database.name = input.name;
    if (input.ram !== undefined) {
      database.memory = input.ram;
      database.cpu = cpuFor(input.ram);
    }
  }

  delete(database: DatabaseRecord): void {
    const data = this.ctx.data;
    data.databases = data.databases.filter((d) => d !== database);
    data.databaseSnapshots = data.databaseSnapshots.filter((s) => s.databaseId !== database.id);
    delete data.lastRestoreAt[database.id];
  }

  certificate(database: DatabaseRecord): string {
    if (database.status !== "running") throw apiError("DATABASE_NOT_RUNNING");
    return certificateFor(database);
  }

  /** A new password, shown once; the old one stops working at once. */
  resetPassword(database: DatabaseRecord): string {
    const password = randomBase36(24);
    database.passwordSha256 = sha256Hex(password);
    return password;
  }

  resetCertificate(database: DatabaseRecord): void {
    database.certificateSerial += 1;
  }

  /**
   * Restores are accepted only for an existing version of this very database, and at most once
   * per 60 s per database (only accepted restores start the window).
   */
  restore(database: DatabaseRecord, snapshotId: string, versionId: string): void {
    if (snapshotId !== database.id) throw apiError("SNAPSHOT_DATABASE_MISMATCH");
    if (!this.snapshots.findDatabaseVersion(database.id, versionId)) throw apiError("SNAPSHOT_NOT_FOUND");
    const now = this.ctx.clock.now();
    const last = this.ctx.data.lastRestoreAt[database.id];
    if (last !== undefined && now - last < RESTORE_RATE_MS && now >= last) throw apiError("RESTORE_IN_PROGRESS");
    this.ctx.data.lastRestoreAt[database.id] = now;
  }

  /** Item of response.databases in /v2/users/me: the creation shape minus every secret. */
  listingView(database: DatabaseRecord) {
    return {
      id: database.id,
      name: database.name,
      memory: database.memory,
      cpu: database.cpu,
      type: database.type,
      connection_url: connectionUrl(database),
      cluster: database.cluster,
      created_at: iso(database.createdAt),
    };
  }

  /** GET /v2/databases/{id}, per the reference: no password, no certificate. */
  detailView(database: DatabaseRecord) {
    return {
      id: database.id,
      name: database.name,
      owner: database.ownerId,
      cluster: database.cluster,
      ram: database.memory,
      type: database.type,
      port: database.port,
      created_at: iso(database.createdAt),
    };
  }

  /** Derived from the id and sample time, so stable across calls; `net` is cumulative, so it grows. */
  metrics(database: DatabaseRecord) {
    const now = this.ctx.clock.now();
    const newest = Math.floor(now / METRICS_STEP_MS) * METRICS_STEP_MS;
    const oldest = Math.max(newest - METRICS_WINDOW_MS + METRICS_STEP_MS, database.createdAt);
    const rate = seededRandom(`net:${database.id}`)() * 400_000 + 50_000;
    const points = [];
    for (let at = newest; at >= oldest; at -= METRICS_STEP_MS) {
      const random = seededRandom(`metrics:${database.id}:${at}`);
      const n = (at - database.createdAt) / METRICS_STEP_MS;
      const received = Math.floor(rate * n + rate * 0.4 * Math.sin(n / 5));
      points.push({
        date: iso(at),
        cpu: Math.round(random() * 35 * 100) / 100,
        ram: Math.round(database.memory * (0.25 + random() * 0.35) * 100) / 100,
        net: [Math.max(0, received), Math.max(0, Math.floor(received * 0.6))],
      });
    }
    return points;
  }
}

function requireMinimumMemory(type: DatabaseType, memory: number): void {
  if (memory < DATABASE_MIN_MEMORY_MB[type]) throw apiError("INVALID_MEMORY");
}

function host(database: DatabaseRecord): string {
  return `square-cloud-db-${database.id}.squareweb.app:${database.port}`;
}

/** With a password only in the creation response; listings get the credential-less form. */
function connectionUrl(database: DatabaseRecord, password?: string): string {
  const credentials = password === undefined ? "default" : `default:${password}`;
  return `${SCHEMES[database.type]}://${credentials}@${host(database)}`;
}

/** A PEM bundle (certificate and key) that looks real and changes when the certificate is reset. */
function certificateFor(database: DatabaseRecord): string {
  const material = (label: string) =>
    Buffer.from(derivedHex(`${label}:${database.id}:${database.certificateSerial}`, 64).repeat(12), "hex")
      .toString("base64")
      .replace(/(.{64})/g, "$1\n")
      .trim();
  const pem =
    `-----BEGIN CERTIFICATE-----\n${material("cert")}\n-----END CERTIFICATE-----\n` +
    `-----BEGIN PRIVATE KEY-----\n${material("key")}\n-----END PRIVATE KEY-----\n`;
  return Buffer.from(pem).toString("base64");
}
