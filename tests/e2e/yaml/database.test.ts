import { type DatabaseShape, databaseLifecycle } from "../lifecycles/database";
import { yamlStack } from "../harness/stack";

// A Database declared in a Pulumi YAML program, served by the native plugin: the lifecycle the
// TypeScript SDK's tests prove for the dynamic provider, through the same handlers.

function databaseProgram({ memory, version }: DatabaseShape) {
  return {
    resources: {
      cache: {
        type: "squarecloud:index:Database",
        properties: { name: "nativecache", type: "redis", memory, version },
      },
    },
    outputs: {
      url: "${cache.connectionUrl}",
      password: "${cache.password}",
      certificate: "${cache.certificate}",
      owner: "${cache.owner}",
    },
  };
}

databaseLifecycle("nativecache", async (first, options) => {
  const program = await yamlStack("native-database", databaseProgram(first), options);
  return { ...program, setDatabase: (shape) => program.setProgram(databaseProgram(shape)) };
});
