import { programStack, type ProgramStack, type ProgramStackOptions } from "../harness/stack";
import type { Operations, OperationsProgram } from "./operations";

/** The config of tests/e2e/programs/operations: each key an object of logical name -> the operation's args. */
export interface Declared {
  snapshots?: Record<string, unknown>;
  restores?: Record<string, unknown>;
  moves?: Record<string, unknown>;
}

export async function declare(program: ProgramStack, declared: Declared) {
  const value = (key: keyof Declared) => ({ value: JSON.stringify(declared[key] ?? {}) });
  await program.stack.setAllConfig({
    snapshots: value("snapshots"),
    restores: value("restores"),
    moves: value("moves"),
  });
}

/** The lifecycle's operations under the names it gives them; the restore and the move when declared. */
export const lifecycleDeclared = ({ snapshot, restore, move }: Operations): Declared => ({
  snapshots: { snapshot },
  restores: restore ? { restore } : {},
  moves: move ? { move } : {},
});

/** The `open` of the operations lifecycle for the TypeScript program (the dynamic provider). */
export async function openOperationsProgram(
  first: Operations,
  options: Omit<ProgramStackOptions, "program">,
): Promise<OperationsProgram> {
  const program = await programStack({ ...options, program: "operations" });
  await declare(program, lifecycleDeclared(first));
  return { ...program, setOperations: (operations) => declare(program, lifecycleDeclared(operations)) };
}
