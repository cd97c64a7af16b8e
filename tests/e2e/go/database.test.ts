import { type DatabaseShape, databaseLifecycle } from "../lifecycles/database";
import { goStack } from "../harness/stack";

// A Database declared in a Pulumi Go program with the generated SDK, served by the native plugin:
// the lifecycle the TypeScript SDK's tests prove for the dynamic provider.

function databaseProgram({ memory, version }: DatabaseShape): string {
  return `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/squarecloud/pulumi-squarecloud/sdk/go/squarecloud"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cache, err := squarecloud.NewDatabase(ctx, "cache", &squarecloud.DatabaseArgs{
			Name:    pulumi.String("gocache"),
			Type:    pulumi.String("redis"),
			Memory:  pulumi.Int(${memory}),
			Version: pulumi.String("${version}"),
		})
		if err != nil {
			return err
		}
		ctx.Export("url", cache.ConnectionUrl)
		ctx.Export("password", cache.Password)
		ctx.Export("certificate", cache.Certificate)
		ctx.Export("owner", cache.Owner)
		return nil
	})
}
`;
}

databaseLifecycle("gocache", async (first, options) => {
  const program = await goStack("go-database", databaseProgram(first), options);
  return { ...program, setDatabase: (shape) => program.setProgram(databaseProgram(shape)) };
});
