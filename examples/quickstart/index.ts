// A redis cache and a mongo document store. Set the API key first:
//   pulumi config set squarecloud:apiKey --secret
import * as sq from "pulumi-squarecloud";

const cache = new sq.Database("cache", { name: "cache", type: "redis", memory: 512, version: "7.4.5" });
const docs = new sq.Database("docs", { name: "docs", type: "mongo", memory: 1024, version: "7.0" });

export const cacheId = cache.id;
export const docsId = docs.id;
// Secrets: `pulumi stack output --show-secrets` reveals them.
export const cacheUrl = cache.connectionUrl;
export const docsUrl = docs.connectionUrl;
export const docsCertificate = docs.certificate;
