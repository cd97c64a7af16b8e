import type { ResourceHandler } from "./handler";
import { databaseHandler } from "./resources/database";
import { blobObjectHandler } from "./resources/blob-object";

/**
 * What the serialized stubs load at call time (`require("pulumi-squarecloud/provider")`): one
 * handler per resource kind, and the shared `configure`. Kinds are part of the state format:
 * a kind, once released, keeps its name.
 */
export const handlers: Record<string, ResourceHandler> = {
  database: databaseHandler,
  blobObject: blobObjectHandler,
};

export { configure } from "./runtime";
