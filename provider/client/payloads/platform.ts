import { z } from "zod";
import { alsoNamed, optionalText } from "./envelope";

/**
 * Objects strip unknown fields, which also keeps secrets a listing might carry out of our values.
 * Timestamps are snake_case here and camelCase in workspaces; each is read under either
 * spelling, as the official clients' types allow both across the API.
 */
const CREATED = { created_at: "createdAt" } as const;

/** A field we can do without: missing or malformed, it is simply absent. */
function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

// ---- inputs with a closed set of values

export const DatabaseType = z.enum(["mongo", "redis"]);
export type DatabaseType = z.infer<typeof DatabaseType>;

/** Groups the API can assign; `owner` exists (the workspace's creator) but the API never assigns it. */
export const WorkspaceGroup = z.enum(["admin", "maintain", "manager", "view"]);
export type WorkspaceGroup = z.infer<typeof WorkspaceGroup>;

export const AnalyticsRange = z.enum(["daily", "weekly"]);
export type AnalyticsRange = z.infer<typeof AnalyticsRange>;

export const SnapshotScope = z.enum(["applications", "databases"]);
export type SnapshotScope = z.infer<typeof SnapshotScope>;

// ---- account

export const Plan = z.object({
  name: z.string(),
  memory: z.object({ limit: z.number(), available: z.number(), used: z.number() }),
  /** End of the plan period, Unix ms; free plans may have none. */
  duration: z
    .number()
    .nullish()
    .transform((value) => value ?? undefined),
});

export const User = alsoNamed(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    plan: Plan,
    locale: optionalText,
    created_at: optionalText,
  }),
  CREATED,
);
export type User = z.infer<typeof User>;

/** Item of `applications` in /v2/users/me (note `lang`, where GET /v2/apps/{id} says `language`). */
export const AppSummary = alsoNamed(
  z.object({
    id: z.string(),
    name: z.string(),
    desc: optionalText,
    ram: z.number(),
    lang: z.string(),
    domain: optionalText,
    custom: optionalText,
    cluster: z.string(),
    created_at: optionalText,
  }),
  CREATED,
);
export type AppSummary = z.infer<typeof AppSummary>;

/**
 * Item of `databases` in /v2/users/me: only id and name required, to settle a lost create.
 * `connection_url` is kept for adoption, as a secret; password and certificate are dropped. The
 * spec gives it the creation response's `memory`; the official types call it `ram`.
 */
export const DatabaseSummary = alsoNamed(
  z.object({
    id: z.string(),
    name: z.string(),
    type: lenient(z.string()),
    memory: lenient(z.number()),
    cpu: lenient(z.number()),
    connection_url: lenient(z.string()),
    cluster: optionalText,
    created_at: optionalText,
  }),
  { ...CREATED, memory: "ram" },
);
export type DatabaseSummary = z.infer<typeof DatabaseSummary>;

export const Account = z.object({
  user: User,
  applications: z.array(AppSummary).default([]),
  databases: z.array(DatabaseSummary).default([]),
});
export type Account = z.infer<typeof Account>;

// ---- applications

export const App = alsoNamed(
  z.object({
    id: z.string(),
    name: z.string(),
    desc: optionalText,
    owner: z.string(),
    cluster: z.string(),
    ram: z.number(),
    language: z.string(),
    domain: optionalText,
    custom: optionalText,
    created_at: z.string(),
  }),
  CREATED,
);
export type App = z.infer<typeof App>;

export const AnalyticsPoint = z.object({
  /** The dimension value; absent in `visits`. */
  type: optionalText,
  visits: z.number(),
  requests: z.number(),
  bytes: z.number(),
  date: z.string(),
});
export type AnalyticsPoint = z.infer<typeof AnalyticsPoint>;

/** Any array may be missing: the API answers `{}` for a window before the app existed. */
const analyticsSeries = z.array(AnalyticsPoint).default([]);
export const Analytics = z.object({
  visits: analyticsSeries,
  countries: analyticsSeries,
  devices: analyticsSeries,
  os: analyticsSeries,
  browsers: analyticsSeries,
  protocols: analyticsSeries,
  methods: analyticsSeries,
  paths: analyticsSeries,
  referers: analyticsSeries,
  providers: analyticsSeries,
});
export type Analytics = z.infer<typeof Analytics>;

/**
 * `state` stays a string: states beyond the documented ones (commit, restarting) are data. A
 * `clone` event names the git `branch` it cloned (the official types; not in the API reference).
 */
export const DeploymentEvent = z.object({
  id: z.string(),
  state: z.string(),
  date: z.string(),
  branch: optionalText,
});
export type DeploymentEvent = z.infer<typeof DeploymentEvent>;

/** Deployments, each the list of its events, earliest first. */
export const Deployments = z.array(z.array(DeploymentEvent));

/** Both fields carry a pre-signed credential. */
export const AppSnapshot = z.object({ url: z.string(), key: z.string() });
export type AppSnapshot = z.infer<typeof AppSnapshot>;

// ---- snapshots

/**
 * Snapshot entry. `key` is a pre-signed query string (a secret); `versionId` is lifted out of it
 * because a restore needs it and it is not secret.
 */
export const SnapshotEntry = z
  .object({
    name: z.string(),
    size: z.number(),
    modified: z.string(),
    key: z.string(),
    /** The official Python client's types give the version its own field too. */
    version_id: optionalText,
  })
  .transform(({ version_id, ...entry }) => ({ ...entry, versionId: versionIdOf(entry.key) ?? version_id }));
export type SnapshotEntry = z.infer<typeof SnapshotEntry>;

function versionIdOf(key: string): string | undefined {
  return new URLSearchParams(key.replace(/^\?/, "")).get("versionId") ?? undefined;
}

export const SnapshotList = z.array(SnapshotEntry);

// ---- databases

/** Only id and password required: an odd value elsewhere must not lose the one-time password. */
export const CreatedDatabase = z.object({
  id: z.string(),
  password: z.string(),
  name: lenient(z.string()),
  memory: lenient(z.number()),
  cpu: lenient(z.number()),
  type: lenient(z.string()),
  certificate: lenient(z.string()),
  connection_url: lenient(z.string()),
  cluster: lenient(z.string()),
});
export type CreatedDatabase = z.infer<typeof CreatedDatabase>;

/** GET /v2/databases/{id}: no credentials. */
export const DatabaseDetails = alsoNamed(
  z.object({
    id: z.string(),
    name: z.string(),
    owner: z.string(),
    cluster: z.string(),
    ram: z.number(),
    type: z.string(),
    port: z.number(),
    created_at: z.string(),
  }),
  CREATED,
);
export type DatabaseDetails = z.infer<typeof DatabaseDetails>;

export const DatabaseCertificate = z.object({ certificate: z.string() });
export const PasswordReset = z.object({ password: z.string() });

export const MetricPoint = z.object({
  date: z.string(),
  cpu: z.number(),
  ram: z.number(),
  net: z.tuple([z.number(), z.number()]),
});
export type MetricPoint = z.infer<typeof MetricPoint>;
export const Metrics = z.array(MetricPoint);

// ---- workspaces (timestamps are camelCase here, unlike elsewhere)

// The two below are also a Workspace's outputs: their descriptions reach the package schema.

export const WorkspaceMember = z
  .object({
    id: z.string().describe("The member's user id."),
    name: z.string().describe("The member's display name."),
    /** Kept a string: the complete set of groups is not published. */
    group: z.string().describe("The member's group as the API reports it, e.g. `owner` or `admin`."),
    joinedAt: z.string().describe("ISO 8601 UTC time the member joined."),
  })
  .describe("A member of a workspace, as the API lists it.");
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

export const WorkspaceApp = z
  .object({
    id: z.string().describe("The application's id."),
    name: z.string().describe("The application's name."),
    ram: z.number().describe("The application's RAM, in MB."),
    lang: z.string().describe("The application's language or runtime."),
  })
  .describe("An application linked to a workspace, as the API lists it.");
export type WorkspaceApp = z.infer<typeof WorkspaceApp>;

/**
 * A member as the API may send one: `joinedAt` also as `joined_at`, and a display name that may be
 * null (the official Python client's types): read as an empty name.
 */
const SentWorkspaceMember = z.preprocess(
  (value) =>
    typeof value === "object" && value !== null && (value as { name?: unknown }).name === null
      ? { ...value, name: "" }
      : value,
  alsoNamed(WorkspaceMember, { joinedAt: "joined_at" }),
);

const CREATED_CAMEL = { createdAt: "created_at" } as const;

export const Workspace = alsoNamed(
  z.object({
    id: z.string(),
    name: z.string(),
    owner: z.string(),
    members: z.array(SentWorkspaceMember).default([]),
    applications: z.array(WorkspaceApp).default([]),
    createdAt: z.string(),
  }),
  CREATED_CAMEL,
);
export type Workspace = z.infer<typeof Workspace>;
export const WorkspaceList = z.array(Workspace);

/** The spec lists id, owner, name and createdAt; the official types give only id and name, all the provider needs is the id. */
export const CreatedWorkspace = alsoNamed(
  z.object({
    id: z.string(),
    owner: optionalText,
    name: optionalText,
    createdAt: optionalText,
  }),
  CREATED_CAMEL,
);
export type CreatedWorkspace = z.infer<typeof CreatedWorkspace>;

/** 32 hex characters, valid 5 minutes, single use: a secret. */
export const InviteCode = z.object({ code: z.string() });

// ---- ids given as inputs

/** An id the platform API takes, checked before use so none reaches another route ("a/../b"). */
export const ApiId = z.string({ error: "must be a string" }).regex(/^[A-Za-z0-9_-]{1,64}$/, {
  error: "must be an id of 1 to 64 letters, digits, '_' or '-'",
});
