import type { ConfigMap } from "@pulumi/pulumi/automation";
import type { SquareCloudClient } from "../../../provider/client";
import type { ProgramStack } from "./stack";

/** One request as a lifecycle reads it back: "METHOD template" (`PATCH /v2/databases/:id`), the path as sent, the answer's status. */
export interface ServedRequest {
  method: string;
  route: string;
  path: string;
  status: number;
}

/**
 * The requests the file's stacks made. Against the in-process emulator, its request log; against
 * a service (tests/live), a recording proxy between the provider and it.
 */
export interface RequestLog {
  requests(): Promise<ServedRequest[]>;
  clearRequests(): Promise<void>;
  /** Requests by route since the last clear. */
  counters(): Promise<Record<string, number>>;
}

/**
 * What a shared lifecycle needs of the service it runs against, whichever it is: the in-process
 * emulator (`emulatorSuite()`, which adds its admin surface for the emulator's own tests) or a
 * service reached only by its URLs and keys (`liveSuite()` of tests/live).
 */
export interface ServiceSuite {
  /** A client of the owner's account, for what a test does behind Pulumi's back. */
  api: SquareCloudClient;
  /** The owner's account id. */
  ownerId(): string;
  /** Stack config that points the provider at the service, the owner's key as a secret. */
  config(): ConfigMap;
  log: RequestLog;
  /**
   * Resolves once listings of the blob objects under `prefix` are computed afresh, past the
   * service's 30 s list cache: at once on a clock the suite moves, else once a listing shows what
   * `settled` expects of a fresh one (the ids it holds), the service giving no other sign.
   */
  pastListCache(prefix: string, settled: (ids: string[]) => boolean): Promise<void>;
  /** Registers a stack to destroy when the file is done. */
  keep(stack: ProgramStack): ProgramStack;
}

/** What the operations lifecycle acts on. */
export interface OperationTargets {
  /** The owner's application it snapshots (twice: a snapshot counts against the daily quota). */
  appId: string;
  /** A database snapshot it restores, where the service has one to spare. */
  restore?: { databaseId: string; snapshotId: string; versionId: string };
  /** A file of the application it moves, where that application's files may change; moved back at the end. */
  move?: { path: string; to: string };
}

export interface OperationsService extends ServiceSuite {
  operationTargets(): OperationTargets;
}

/** A second account, which the membership tests invite to the owner's workspaces. */
export interface Invitee {
  id: string;
  name: string;
  /** A fresh invite code, fetched as the person would: with their own key. */
  inviteCode(): Promise<string>;
}

/** What the team lifecycle needs beyond any service: applications to link and a person to invite. */
export interface TeamService extends ServiceSuite {
  /** Three of the owner's applications a workspace links and unlinks (a link leaves an app's files alone). */
  teamApps(): readonly [string, string, string];
  invitee(): Invitee;
}

/**
 * What the data-source lifecycle reads beyond what it makes for itself: each an id the service
 * holds, or why that part is not read.
 */
export interface ReadTargets {
  /** One of the owner's applications: read by id and by its name, with its analytics and deployments. */
  app: string | { skip: string };
  /** One of the owner's databases that no run made: its metrics, and its latest snapshot where it has one. */
  database: string | { skip: string };
}

export interface ReadsService extends ServiceSuite {
  readTargets(): ReadTargets;
}
