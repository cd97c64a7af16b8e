import * as pulumi from "@pulumi/pulumi";
import { DATABASE_SECRET_OUTPUTS } from "../provider/schemas/database";
import type { DatabaseInputs } from "../provider/schemas/database";
import { InputsOf, withSecretOutputs } from "./inputs";
import { ProviderStub } from "./stub";

const provider = new ProviderStub("database");

export type DatabaseArgs = InputsOf<DatabaseInputs>;

/**
 * A managed mongo or redis database.
 *
 * `name` and `memory` change in place; a new `type` or `version` replaces the database (a new one
 * is created, then the old one deleted: mind the plan's memory, or set `deleteBeforeReplace`).
 * `password`, `certificate` and `connectionUrl` are secrets. The password is shown by the API
 * only once; to get a new one, set `passwordRotation` to a new value. `adoptId` takes over an
 * existing database instead of creating one. Use `protect: true` to guard against deletion, and
 * `retainOnDelete: true` to keep the database when it leaves the program.
 */
export class Database extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly type: pulumi.Output<"mongo" | "redis">;
  /** RAM in MB. */
  declare readonly memory: pulumi.Output<number>;
  declare readonly version: pulumi.Output<string>;
  /** The account (user id) that owns the database. */
  declare readonly owner: pulumi.Output<string | undefined>;
  declare readonly cpu: pulumi.Output<number | undefined>;
  declare readonly cluster: pulumi.Output<string | undefined>;
  declare readonly password: pulumi.Output<string | undefined>;
  declare readonly certificate: pulumi.Output<string | undefined>;
  declare readonly connectionUrl: pulumi.Output<string | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  declare readonly passwordRotation: pulumi.Output<string | undefined>;

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs the provider computes are listed unset, so the engine exposes them on the resource.
    const outputs = {
      owner: undefined,
      cpu: undefined,
      cluster: undefined,
      password: undefined,
      certificate: undefined,
      connectionUrl: undefined,
      // Optional inputs too: an output exists only for keys present here.
      adoptId: undefined,
      passwordRotation: undefined,
    };
    super(provider, name, { ...outputs, ...args }, withSecretOutputs(opts, DATABASE_SECRET_OUTPUTS), "squarecloud", "Database");
  }
}
