import { z } from "zod";
import { ApiId, DatabaseType } from "../client/payloads/platform";

/** The Database resource's inputs: the single source of its validation rules and its types. */

/** Minimum RAM per engine, in MB (api-spec: limits). */
export const MIN_MEMORY_MB: Record<DatabaseType, number> = { redis: 512, mongo: 1024 };
export const SMALLEST_MIN_MEMORY_MB = Math.min(...Object.values(MIN_MEMORY_MB));

export const databaseInputFields = {
  name: z.string({ error: "must be a string" }).regex(/^[a-zA-Z0-9]+$/, {
    error: "must contain only the letters a-z, A-Z and the digits 0-9",
  }),
  type: z.enum(DatabaseType.options, { error: 'must be "mongo" or "redis"' }),
  memory: z
    .number({ error: "must be a number of MB" })
    .int({ error: "must be a whole number of MB" })
    .positive({ error: "must be a positive number of MB" }),
  version: z.string({ error: "must be a string" }).regex(/^\d+(\.\d+)*$/, {
    error: 'must be a dotted numeric engine version such as "7.4.5"',
  }),
  /** Take over this existing database at creation instead of creating one; read only then. */
  adoptId: ApiId.optional(),
  /** Any value; setting or changing it resets the password once and captures the new one. */
  passwordRotation: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional(),
};

export type DatabaseInputs = z.infer<z.ZodObject<typeof databaseInputFields>>;

/** What state holds for a database: the inputs as applied plus what the API reported. */
export interface DatabaseOutputs extends DatabaseInputs {
  /** The account (user id) that owns it: a database "not found" with another account's key is not gone. */
  owner?: string;
  cpu?: number;
  cluster?: string;
  /** Secret. Returned once, at creation or by a password reset. */
  password?: string;
  /** Secret. Base64 PEM. */
  certificate?: string;
  /** Secret: it carries the password. */
  connectionUrl?: string;
}

/** Outputs the SDK marks secret, so the engine encrypts them in state. */
export const DATABASE_SECRET_OUTPUTS = ["password", "certificate", "connectionUrl"] as const;
