import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { EmulatorCore } from "../../../emulator/core";
import { EmulatorError } from "../../../emulator/errors";
import type { ApiRequest } from "../../../emulator/http/server";
import * as emulatorRules from "../../../emulator/models/rules";
import { blobRoutes, platformRoutes } from "../../../emulator/routes";
import {
  SEED_ACCOUNTS,
  SEED_APPS,
  SEED_DATABASE_SNAPSHOT_VERSIONS,
  SEED_DATABASES,
  SEED_WORKSPACES,
} from "../../../emulator/seed";
import { MemoryStateStore } from "../../../emulator/store/memory-store";
import { handlers } from "../../../provider";
import { DatabaseType, WorkspaceGroup } from "../../../provider/client/payloads/platform";
import type { AnyKind } from "../../../provider/kinds/declaration";
import {
  appFileMove,
  blobObject,
  database,
  databaseRestore,
  workspace,
  workspaceMember,
} from "../../../provider/kinds";
import { MAX_APP_PATH_LENGTH } from "../../../provider/kinds/app-file-move";
import {
  ALLOWED_MIME_TYPES,
  MAX_EXPIRE_DAYS,
  MAX_OBJECT_BYTES,
  MIN_OBJECT_BYTES,
  OBJECT_NAME_PATTERN,
} from "../../../provider/kinds/blob-object";
import { MIN_MEMORY_MB } from "../../../provider/kinds/database";
import { ASSET_SIG, SIG_KEY } from "../../../provider/signatures";
import { withPlaceholderApiKey } from "../helpers/api-key";

/**
 * The provider's check and the emulator are two models of the API's rules, kept apart on purpose
 * (the emulator stands for the service). This holds them together: each rule's edge values, taken
 * from the bounds both sides declare, go to the kind's check and, as the client would send them,
 * to the emulator's route in-process; every value must get the same verdict from both.
 *
 * The emulator refuses a value by a rule when it answers an INVALID_* or FILE_TOO_* code; any
 * other answer (done, or a NOT_FOUND of a well-formed id that names nothing) means its rules let
 * the value through.
 */

withPlaceholderApiKey();

const alice = SEED_ACCOUNTS.alice.accountId;
const carol = SEED_ACCOUNTS.carol.accountId;
const dave = SEED_ACCOUNTS.dave.accountId;

/** A fresh emulator for each value, so no value sees another's state (a name taken, a code spent). */
class Emulator {
  readonly core = new EmulatorCore(new MemoryStateStore());

  /** Carol's invite code, as she would fetch it to join alice's workspace. */
  inviteCode(): string {
    return this.core.models.workspaces.inviteCode(this.account(carol));
  }

  /** The code of the rule that refuses the request, or undefined when the rules let it through. */
  async refusal(method: string, template: string, request: Partial<EmulatorRequest>): Promise<string | undefined> {
    const route = [...platformRoutes, ...blobRoutes].find((r) => r.method === method && r.template === template);
    if (route === undefined) throw new Error(`the emulator has no route ${method} ${template}`);
    const api: ApiRequest = {
      req: request.upload ? uploadRequest(request.upload) : (Readable.from([]) as unknown as IncomingMessage),
      account: this.account(alice),
      params: request.params ?? {},
      query: new URLSearchParams(request.query ?? {}),
      json: async () => request.json ?? {},
      onDone: () => {},
    };
    try {
      await route.handler(api, this.core.models);
      return undefined;
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      return /^(INVALID_|FILE_TOO_)/.test(error.code) ? error.code : undefined;
    }
  }

  private account(id: string) {
    const account = this.core.models.accounts.find(id);
    if (account === undefined) throw new Error(`no seeded account ${id}`);
    return account;
  }
}

interface EmulatorRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  json: Record<string, unknown>;
  upload: { contentType: string; bytes: number };
}

/** An upload's request as the client sends it: one multipart part named "file". */
function uploadRequest(upload: { contentType: string; bytes: number }): IncomingMessage {
  const boundary = "agreement";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: ${upload.contentType}\r\n\r\n`;
  const body = Readable.from([
    Buffer.from(head),
    Buffer.alloc(upload.bytes, 97),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return Object.assign(body, {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  }) as unknown as IncomingMessage;
}

/**
 * One rule: the kind whose check applies it, valid inputs with the value in place, and the request
 * that carries the value to the emulator. A value may depend on the emulator's state (an invite code).
 */
interface Rule<V> {
  kind: AnyKind;
  /** The state of a resource being updated; creation when left out. */
  olds?: Record<string, unknown>;
  values: ((emulator: Emulator) => V)[];
  inputs: (value: V) => Record<string, unknown>;
  emulator: (emulator: Emulator, value: V) => Promise<string | undefined>;
}

function values<V>(...given: V[]): ((emulator: Emulator) => V)[] {
  return given.map((value) => () => value);
}

/** The bounds of a pattern's {min,max} repetition, when it has one. */
function lengthBounds(pattern: RegExp): number[] {
  const match = /\{(\d+),(\d+)\}/.exec(pattern.source);
  return match ? [Number(match[1]), Number(match[2])] : [];
}

/** Strings of each bound's length and one either side, of a character every such pattern allows. */
function lengthEdges(...patterns: RegExp[]): string[] {
  const bounds = new Set(patterns.flatMap(lengthBounds));
  return [...new Set([...bounds].flatMap((n) => [n - 1, n, n + 1]))].map((n) => "a".repeat(n));
}

/** Numbers at each bound and one either side, a fraction, zero and a negative. */
function numberEdges(...bounds: number[]): number[] {
  const unique = [...new Set(bounds)];
  return [...new Set([...unique.flatMap((n) => [n - 1, n, n + 1]), 0, -1, unique[0] + 0.5])];
}

/** Characters outside the identifier patterns, each inside an otherwise valid value. */
const ODD_CHARACTERS = ["-", " ", ".", "/", "é", "\u0000", "$"];
const oddNames = (base: string) => ["", ...ODD_CHARACTERS.map((c) => `${base.slice(0, 1)}${c}${base.slice(1)}`)];

const validDatabase = { name: "cache", type: "redis", memory: 1024, version: "7.4.5" };
const createDatabase = (emulator: Emulator, inputs: Record<string, unknown>) =>
  emulator.refusal("POST", "/v2/databases", { json: inputs });

const engines = [...new Set([...DatabaseType.options, ...emulatorRules.DATABASE_TYPES])];
/** Each side's minimum for the engine, its edges, and the minimum as text (a JSON body keeps the type). */
function memoryEdges(type: string): unknown[] {
  const minimums = [
    (MIN_MEMORY_MB as Record<string, number>)[type],
    (emulatorRules.DATABASE_MIN_MEMORY_MB as Record<string, number>)[type],
  ];
  return [...numberEdges(...minimums), String(minimums[0])];
}
const seededDatabaseOf: Record<string, string> = { redis: SEED_DATABASES.aliceCache, mongo: SEED_DATABASES.aliceMain };

const ids = [
  ...lengthEdges(emulatorRules.ID_PATTERN).filter((id) => id.length > 0),
  ...oddNames("abcd"),
  "a_b-C9",
  "..",
];

const validObject = {
  source: { [SIG_KEY]: ASSET_SIG, text: "a".repeat(MIN_OBJECT_BYTES) },
  name: "logo",
  mimeType: "text/plain",
};
interface Upload {
  name: string;
  prefix?: string;
  expire?: unknown;
  mimeType: string;
  bytes: number;
}
const upload = (emulator: Emulator, given: Upload) =>
  emulator.refusal("POST", "/v1/objects", {
    query: {
      name: given.name,
      ...(given.prefix !== undefined ? { prefix: given.prefix } : {}),
      ...(given.expire !== undefined ? { expire: String(given.expire) } : {}),
    },
    upload: { contentType: given.mimeType, bytes: given.bytes },
  });
const objectUpload = { name: "logo", mimeType: "text/plain", bytes: MIN_OBJECT_BYTES };
const objectNames = [
  ...lengthEdges(OBJECT_NAME_PATTERN, emulatorRules.OBJECT_NAME_PATTERN),
  ...oddNames("logo"),
  "Logo_9",
];

const validRestore = {
  databaseId: SEED_DATABASES.aliceCache,
  snapshotId: SEED_DATABASES.aliceCache,
  versionId: SEED_DATABASE_SNAPSHOT_VERSIONS.aliceCache[0],
  confirm: true,
};
const restore = (emulator: Emulator, body: { snapshotId: unknown; versionId: unknown }) =>
  emulator.refusal("POST", "/v2/databases/:id/snapshots/restore", {
    params: { id: SEED_DATABASES.aliceCache },
    json: body,
  });

const validMove = { appId: SEED_APPS.aliceWebsite, path: "index.js", to: "main.js" };
const move = (emulator: Emulator, body: { path: unknown; to: unknown }) =>
  emulator.refusal("PATCH", "/v2/apps/:id/files", { params: { id: SEED_APPS.aliceWebsite }, json: body });
const appPaths = [
  "",
  "a".repeat(MAX_APP_PATH_LENGTH),
  "a".repeat(MAX_APP_PATH_LENGTH + 1),
  "src/server.js",
  "/index.js",
  "index.js/",
  "./index.js",
  "src/./server.js",
  "src//server.js",
  "../index.js",
  "src/../index.js",
  "src\\server.js",
  "index\u0001.js",
  "index\u007f.js",
];

const validMember = { workspaceId: SEED_WORKSPACES.aliceTeam.id, group: "view" };
const groups = [...new Set([...WorkspaceGroup.options, ...emulatorRules.ASSIGNABLE_GROUPS])];
const oddGroups = ["owner", "member", "Admin", "", " view"];

const RULES: Record<string, Rule<any>> = {
  "database name": {
    kind: database,
    values: values(...oddNames("cache"), "a", "A9", "a".repeat(200), "a_b"),
    inputs: (name) => ({ ...validDatabase, name }),
    emulator: (emulator, name) => createDatabase(emulator, { ...validDatabase, name }),
  },
  "database name, changed": {
    kind: database,
    olds: { ...validDatabase, owner: alice },
    values: values(...oddNames("cache"), "a", "a_b"),
    inputs: (name) => ({ ...validDatabase, name }),
    emulator: (emulator, name) =>
      emulator.refusal("PATCH", "/v2/databases/:id", { params: { id: SEED_DATABASES.aliceCache }, json: { name } }),
  },
  "database engine": {
    kind: database,
    values: values(...engines, "postgres", "Redis", ""),
    inputs: (type) => ({ ...validDatabase, type }),
    emulator: (emulator, type) => createDatabase(emulator, { ...validDatabase, type }),
  },
  ...Object.fromEntries(
    engines.flatMap((type) => [
      [
        `memory of a ${type} database`,
        {
          kind: database,
          values: values(...memoryEdges(type)),
          inputs: (memory) => ({ ...validDatabase, type, memory }),
          emulator: (emulator, memory) => createDatabase(emulator, { ...validDatabase, type, memory }),
        } satisfies Rule<unknown>,
      ],
      [
        `memory of a ${type} database, changed`,
        {
          kind: database,
          olds: { ...validDatabase, type, owner: alice },
          values: values(...memoryEdges(type)),
          inputs: (memory) => ({ ...validDatabase, type, memory }),
          emulator: (emulator, ram) =>
            emulator.refusal("PATCH", "/v2/databases/:id", { params: { id: seededDatabaseOf[type] }, json: { ram } }),
        } satisfies Rule<unknown>,
      ],
    ]),
  ),
  "database version": {
    kind: database,
    values: values("7", "7.0", "7.4.5", "10.20.30.40", "", "7.", ".7", "v7", "7.x", "latest", "7..0", " 7.0"),
    inputs: (version) => ({ ...validDatabase, version }),
    emulator: (emulator, version) => createDatabase(emulator, { ...validDatabase, version }),
  },
  "workspace name": {
    kind: workspace,
    values: values(...lengthEdges(emulatorRules.WORKSPACE_NAME_PATTERN), ...oddNames("team"), "Team_9"),
    inputs: (name) => ({ name }),
    emulator: (emulator, name) => emulator.refusal("POST", "/v2/workspaces", { json: { name } }),
  },
  "linked application id": {
    kind: workspace,
    values: values(SEED_APPS.aliceWebsite, ...ids),
    inputs: (appId) => ({ name: "team", applications: [appId] }),
    emulator: (emulator, appId) =>
      emulator.refusal("POST", "/v2/workspaces/applications", {
        json: { workspaceId: SEED_WORKSPACES.aliceTeam.id, appId },
      }),
  },
  "member's group": {
    kind: workspaceMember,
    values: [...groups, ...oddGroups].map((group) => (emulator: Emulator) => ({ group, code: emulator.inviteCode() })),
    inputs: ({ group, code }) => ({ ...validMember, group, inviteCode: code }),
    emulator: (emulator, { group, code }) =>
      emulator.refusal("POST", "/v2/workspaces/members", {
        json: { workspaceId: validMember.workspaceId, code, group },
      }),
  },
  "member's group, changed": {
    kind: workspaceMember,
    olds: { ...validMember, userId: dave },
    values: values(...groups, ...oddGroups),
    inputs: (group) => ({ ...validMember, group, userId: dave }),
    emulator: (emulator, group) =>
      emulator.refusal("PATCH", "/v2/workspaces/members", {
        json: { workspaceId: validMember.workspaceId, memberId: dave, group },
      }),
  },
  "invite code": {
    kind: workspaceMember,
    values: [
      (emulator) => emulator.inviteCode(),
      (emulator) => emulator.inviteCode().toUpperCase(),
      (emulator) => emulator.inviteCode().slice(1),
      (emulator) => `${emulator.inviteCode()}0`,
      (emulator) => `g${emulator.inviteCode().slice(1)}`,
      () => "",
    ],
    inputs: (inviteCode) => ({ ...validMember, inviteCode }),
    emulator: (emulator, code) =>
      emulator.refusal("POST", "/v2/workspaces/members", {
        json: { workspaceId: validMember.workspaceId, code, group: validMember.group },
      }),
  },
  "workspace id of a member": {
    kind: workspaceMember,
    values: values(...ids),
    inputs: (workspaceId) => ({ ...validMember, workspaceId, userId: dave }),
    emulator: (emulator, workspaceId) =>
      emulator.refusal("DELETE", "/v2/workspaces/members", { json: { workspaceId, memberId: dave } }),
  },
  "member's user id": {
    kind: workspaceMember,
    values: values(...ids),
    inputs: (userId) => ({ ...validMember, userId }),
    emulator: (emulator, memberId) =>
      emulator.refusal("DELETE", "/v2/workspaces/members", {
        json: { workspaceId: validMember.workspaceId, memberId },
      }),
  },
  "object name": {
    kind: blobObject,
    values: values(...objectNames),
    inputs: (name) => ({ ...validObject, name }),
    emulator: (emulator, name) => upload(emulator, { ...objectUpload, name }),
  },
  "object prefix": {
    kind: blobObject,
    values: values(...objectNames),
    inputs: (prefix) => ({ ...validObject, prefix }),
    emulator: (emulator, prefix) => upload(emulator, { ...objectUpload, prefix }),
  },
  "listing prefix": {
    kind: blobObject,
    values: values(...objectNames),
    inputs: (prefix) => ({ ...validObject, prefix }),
    emulator: (emulator, prefix) => emulator.refusal("GET", "/v1/objects", { query: { prefix } }),
  },
  "object expiry": {
    kind: blobObject,
    values: values(...numberEdges(1, MAX_EXPIRE_DAYS, emulatorRules.OBJECT_EXPIRE_MAX_DAYS)),
    inputs: (expireDays) => ({ ...validObject, expireDays }),
    emulator: (emulator, expire) => upload(emulator, { ...objectUpload, expire }),
  },
  "object size": {
    kind: blobObject,
    values: values(
      ...[
        ...new Set([
          MIN_OBJECT_BYTES,
          MAX_OBJECT_BYTES,
          emulatorRules.UPLOAD_MIN_BYTES,
          emulatorRules.UPLOAD_MAX_BYTES,
        ]),
      ].flatMap((n) => [n - 1, n, n + 1]),
      0,
    ),
    inputs: (bytes) => ({ ...validObject, source: { [SIG_KEY]: ASSET_SIG, text: "a".repeat(bytes) } }),
    emulator: (emulator, bytes) => upload(emulator, { ...objectUpload, bytes }),
  },
  "object MIME type": {
    kind: blobObject,
    values: values(
      ...new Set([...Object.keys(ALLOWED_MIME_TYPES), ...Object.keys(emulatorRules.UPLOAD_MIME_EXTENSIONS)]),
      "application/zip",
      "text/markdown",
      "application/octet-stream",
    ),
    inputs: (mimeType) => ({ ...validObject, mimeType }),
    emulator: (emulator, mimeType) => upload(emulator, { ...objectUpload, mimeType }),
  },
  "snapshot id of a restore": {
    kind: databaseRestore,
    values: values(SEED_DATABASES.aliceCache, ...ids),
    inputs: (snapshotId) => ({ ...validRestore, snapshotId }),
    emulator: (emulator, snapshotId) => restore(emulator, { snapshotId, versionId: validRestore.versionId }),
  },
  "version id of a restore": {
    kind: databaseRestore,
    values: values(
      validRestore.versionId,
      validRestore.versionId.toUpperCase(),
      validRestore.versionId.replaceAll("-", ""),
      validRestore.versionId.slice(1),
      `${validRestore.versionId}0`,
      `x${validRestore.versionId.slice(1)}`,
      "",
    ),
    inputs: (versionId) => ({ ...validRestore, versionId }),
    emulator: (emulator, versionId) => restore(emulator, { snapshotId: validRestore.snapshotId, versionId }),
  },
  "path of a file to move": {
    kind: appFileMove,
    values: values(...appPaths),
    inputs: (path) => ({ ...validMove, path }),
    emulator: (emulator, path) => move(emulator, { path, to: validMove.to }),
  },
  "destination of a file to move": {
    kind: appFileMove,
    values: values(...appPaths),
    inputs: (to) => ({ ...validMove, to }),
    emulator: (emulator, to) => move(emulator, { path: validMove.path, to }),
  },
};

/**
 * Values the provider refuses at preview although the emulator, like the service, would take them,
 * each with why. Never the other way round: what check lets through must not fail at `up`.
 */
const PROVIDER_STRICTER: Record<string, readonly unknown[]> = {
  // The service takes a leading "/" and "." or empty segments, and normalizes them away; the
  // provider takes each path in one spelling only, so a move recorded in state and the next
  // program's path compare as equal exactly when they name the same file.
  "path of a file to move": ["/index.js", "./index.js", "src/./server.js", "src//server.js"],
  "destination of a file to move": ["/index.js", "./index.js", "src/./server.js", "src//server.js"],
};

/** The value, or for a long one its start and length. */
function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 40)}... (${text.length} characters)` : text;
}

describe("the provider's check and the emulator give each edge value the same verdict", () => {
  test.each(Object.keys(RULES))("%s", async (name) => {
    const rule = RULES[name];
    const check = handlers[rule.kind.kind].check;
    const differences: string[] = [];
    const stricter: unknown[] = [];
    for (const make of rule.values) {
      const emulator = new Emulator();
      const value = make(emulator);
      const { failures } = await check(rule.olds ?? {}, rule.inputs(value));
      const refusal = await rule.emulator(emulator, value);
      const providerRefuses = (failures ?? []).length > 0;
      if (providerRefuses === (refusal !== undefined)) continue;
      if (providerRefuses && PROVIDER_STRICTER[name]?.includes(value)) {
        stricter.push(value);
        continue;
      }
      differences.push(
        `${shown(value)}: the provider ${providerRefuses ? `refuses (${failures?.[0]?.reason})` : "accepts"}, the emulator ${refusal ?? "accepts"}`,
      );
    }
    expect(differences).toEqual([]);
    expect(stricter).toEqual(PROVIDER_STRICTER[name] ?? []);
  });
});
