import { z } from "zod";
import { ApiId, DatabaseType } from "../client/payloads/platform";
import { isUnknown } from "../field-check";
import { declareKind, field, type InputsOf, type OutputsOf } from "./declaration";

/** Minimum RAM per engine, in MB (docs/service-limits.md). */
export const MIN_MEMORY_MB: Record<DatabaseType, number> = { redis: 512, mongo: 1024 };
export const SMALLEST_MIN_MEMORY_MB = Math.min(...Object.values(MIN_MEMORY_MB));

export const database = declareKind({
  name: "Database",
  kind: "database",
  description: `A managed mongo or redis database.

\`name\` and \`memory\` change in place; a new \`type\` or \`version\` replaces the database (a new one
is created, then the old one deleted: mind the plan's memory, or set \`deleteBeforeReplace\`).
\`password\`, \`certificate\` and \`connectionUrl\` are secrets. The password is shown by the API
only once; to get a new one, set \`passwordRotation\` to a new value. \`adoptId\` takes over an
existing database instead of creating one. Use \`protect: true\` to guard against deletion, and
\`retainOnDelete: true\` to keep the database when it leaves the program.`,
  inputs: {
    name: field(
      z.string({ error: "must be a string" }).regex(/^[a-zA-Z0-9]+$/, {
        error: "must contain only the letters a-z, A-Z and the digits 0-9",
      }),
      "The database's name: letters and digits only.",
    ),
    type: field(
      z.enum(DatabaseType.options, { error: 'must be "mongo" or "redis"' }),
      "The engine, `mongo` or `redis`.",
    ),
    memory: field(
      z
        .number({ error: "must be a number of MB" })
        .int({ error: "must be a whole number of MB" })
        .positive({ error: "must be a positive number of MB" }),
      `RAM in MB: at least ${MIN_MEMORY_MB.redis} for redis, ${MIN_MEMORY_MB.mongo} for mongo.`,
    ),
    version: field(
      z
        .string({ error: "must be a string" })
        .regex(/^\d+(\.\d+)*$/, {
          error: 'must be a dotted numeric engine version such as "7.4.5"',
        })
        .optional(),
      'The engine version, e.g. "7.4.5": required to create a database. An imported database, whose version the API never reports, records the version first given without replacing.',
    ),
    adoptId: field(
      ApiId.optional(),
      "Take over this existing database at creation instead of creating one; read only then.",
    ),
    passwordRotation: field(
      z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional(),
      "Any value; setting or changing it resets the password once and stores the new one as a secret.",
    ),
  },
  outputs: {
    owner: field(z.string().optional(), "The account (user id) that owns the database."),
    cpu: field(z.number().optional(), "CPU share the platform gives the database."),
    cluster: field(z.string().optional(), "The cluster the database runs on."),
    createdAt: field(
      z.string().optional(),
      "ISO 8601 time the database was created, as the API reports it; the create response lacks it, so it appears with the first refresh (or adoption).",
    ),
    password: field(z.string().optional(), "Returned by the API once, at creation or by a password reset."),
    certificate: field(z.string().optional(), "The TLS client certificate, base64 PEM."),
    connectionUrl: field(z.string().optional(), "It carries the password."),
  },
  secretOutputs: ["password", "certificate", "connectionUrl"],
  replaceOn: ["type", "version"],
  updateOn: ["name", "memory", "passwordRotation"],
  changes: {
    // A version only replaces what had one: an imported database (the API never reports its
    // version) records the first one given, in place; a version left out manages none.
    version: (olds, news) => {
      if (news.version === undefined) return "none";
      if (olds.version === undefined) return "inPlace";
      return isUnknown(news.version) || olds.version !== news.version ? "replace" : "none";
    },
  },
  // Another account's databases are DATABASE_NOT_FOUND too.
  visibility: { notFound: "DATABASE_NOT_FOUND" },
  adoption: { noun: "database" },
  apis: ["platform"],
  import: {
    brings: "name, type, memory, owner, cluster, createdAt; certificate and connection URL as secrets",
    leavesOut:
      "the password (the API shows it only at creation: set `passwordRotation` to get a new one) and the version (the API " +
      "never reports it; stating it later records it in place, never a replacement)",
  },
});

export type DatabaseInputs = InputsOf<typeof database>;
export type DatabaseOutputs = OutputsOf<typeof database>;
