package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	sq "github.com/squarecloud/pulumi-squarecloud/sdk/go/squarecloud"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// A managed redis database: 512 MB, the smallest a redis database takes.
		cache, err := sq.NewDatabase(ctx, "cache", &sq.DatabaseArgs{
			Name:    pulumi.String("cache"),
			Type:    pulumi.String("redis"),
			Memory:  pulumi.Int(512),
			Version: pulumi.String("7.4.5"),
		})
		if err != nil {
			return err
		}
		ctx.Export("cacheId", cache.ID())
		ctx.Export("cacheUrl", cache.ConnectionUrl) // secret: `pulumi stack output --show-secrets cacheUrl` shows it
		return nil
	})
}
