import pulumi
import pulumi_squarecloud as squarecloud

# A managed redis database: 512 MB, the smallest a redis database takes.
cache = squarecloud.Database("cache", name="cache", type="redis", memory=512, version="7.4.5")

pulumi.export("cacheId", cache.id)
pulumi.export("cacheUrl", cache.connection_url)  # secret: `pulumi stack output --show-secrets cacheUrl` shows it
