// The infrastructure a repository owns, changed by pull request: .github/workflows/pulumi.yml
// previews each pull request and deploys main. The program itself is a plain one (a redis cache
// and a page on the blob storage's CDN); it reads its API key from SQUARECLOUD_API_KEY, which the
// workflow takes from a repository secret. See README.md for the set-up.
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const config = new pulumi.Config();

// A pull request that sets another size (`pulumi config set cacheMemory 1024` and commit
// Pulumi.production.yaml) shows `~ update` in its preview comment; merging it applies it.
const cache = new sq.Database("cache", {
  name: "cache",
  type: "redis",
  memory: config.getNumber("cacheMemory") ?? 512,
  version: "7.4.5",
});

// Every file below public/ becomes an object on the CDN; an edited file is replaced on merge.
const site = new sq.BlobFolder("site", { directory: "public", prefix: "gitops" });

export const cacheId = cache.id;
export const cacheUrl = cache.connectionUrl; // secret: the preview comment shows [secret]
export const siteUrls = site.urls;
