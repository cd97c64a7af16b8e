import type { DatabaseProgram, DatabaseShape } from "./database";
import { programStack, type ProgramStack, type ProgramStackOptions, yamlStack } from "../harness/stack";

/** The Database args tests/e2e/programs/database reads from its config `database`. */
export type DatabaseSpec = {
  name: string;
  type: string;
  memory: number;
  version: string;
  adoptId?: string;
  passwordRotation?: string;
};

/** The shared lifecycle's redis database `name` as that program declares it. */
export const lifecycleSpec = (name: string, { memory, version }: DatabaseShape): DatabaseSpec => ({
  name,
  type: "redis",
  memory,
  version,
});

export async function setDatabaseSpec(program: ProgramStack, spec: DatabaseSpec) {
  await program.stack.setConfig("database", { value: JSON.stringify(spec) });
}

/** The `open` of the Database lifecycle for the TypeScript program, its database named `name`. */
export function openDatabaseProgram(name: string) {
  return async (first: DatabaseShape, options: Omit<ProgramStackOptions, "program">): Promise<DatabaseProgram> => {
    const program = await programStack({
      ...options,
      program: "database",
      config: { ...options.config, database: { value: JSON.stringify(lifecycleSpec(name, first)) } },
    });
    return { ...program, setDatabase: (shape) => setDatabaseSpec(program, lifecycleSpec(name, shape)) };
  };
}

/** A Pulumi YAML program declaring the shared Database lifecycle's redis database `name`, served by the native plugin. */
function databaseProgram(name: string, { memory, version }: DatabaseShape) {
  return {
    resources: {
      cache: {
        type: "squarecloud:index:Database",
        properties: { name, type: "redis", memory, version },
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

/** The `open` of the Database lifecycle for a YAML program of the stack `label`, its database named `name`. */
export function openYamlDatabase(label: string, name: string) {
  return async (first: DatabaseShape, options: Omit<ProgramStackOptions, "program">): Promise<DatabaseProgram> => {
    const program = await yamlStack(label, databaseProgram(name, first), options);
    return { ...program, setDatabase: (shape) => program.setProgram(databaseProgram(name, shape)) };
  };
}
