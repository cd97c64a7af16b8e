import { type DatabaseShape, databaseLifecycle } from "../lifecycles/database";
import { pythonStack } from "../harness/stack";

// A Database declared in a Pulumi Python program with the generated SDK, served by the native
// plugin: the lifecycle the TypeScript SDK's tests prove for the dynamic provider.

function databaseProgram({ memory, version }: DatabaseShape): string {
  return `import pulumi
import pulumi_squarecloud as squarecloud

cache = squarecloud.Database("cache", name="pycache", type="redis", memory=${memory}, version="${version}")
pulumi.export("url", cache.connection_url)
pulumi.export("password", cache.password)
pulumi.export("certificate", cache.certificate)
pulumi.export("owner", cache.owner)
`;
}

databaseLifecycle("pycache", async (first, options) => {
  const program = await pythonStack("python-database", databaseProgram(first), options);
  return { ...program, setDatabase: (shape) => program.setProgram(databaseProgram(shape)) };
});
