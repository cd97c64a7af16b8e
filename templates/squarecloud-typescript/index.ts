import * as sq from "pulumi-squarecloud";

// A managed redis database: 512 MB, the smallest a redis database takes.
const cache = new sq.Database("cache", { name: "cache", type: "redis", memory: 512, version: "7.4.5" });

export const cacheId = cache.id;
export const cacheUrl = cache.connectionUrl; // secret: `pulumi stack output --show-secrets cacheUrl` shows it
