// Declares one Database `cache` from config `database` (its args) and exports what the shared
// Database lifecycle (tests/e2e/lifecycles/database.ts) reads, as its YAML, Python and Go programs do.
import * as pulumi from "@pulumi/pulumi";
import { Database, type DatabaseArgs } from "pulumi-squarecloud";

const cache = new Database("cache", new pulumi.Config().requireObject<DatabaseArgs>("database"));

export const id = cache.id;
export const type = cache.type;
export const url = cache.connectionUrl;
export const password = cache.password;
export const certificate = cache.certificate;
export const owner = cache.owner;
