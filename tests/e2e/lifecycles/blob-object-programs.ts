import type { BlobObjectShape, BlobObjectsProgram } from "./blob-object";
import { programStack, type ProgramStack, type ProgramStackOptions } from "../harness/stack";

/** What tests/e2e/programs/blobs declares an object from: its BlobObject args, the source as `file` or `text`. */
export type BlobSpec = Record<string, unknown> & { name: string };

export async function setBlobSpecs(program: ProgramStack, objects: Record<string, BlobSpec>) {
  await program.stack.setConfig("objects", { value: JSON.stringify(objects) });
}

export async function blobOutputsOf(program: ProgramStack): Promise<Record<string, Record<string, any>>> {
  return (await program.stack.outputs()).objects.value;
}

/**
 * The shared lifecycle's objects as the program of tests/e2e/programs/blobs declares them, under
 * `prefix`; `data` expires a day after its upload.
 */
export const blobSpecsOf = (prefix: string, objects: Record<string, BlobObjectShape>): Record<string, BlobSpec> =>
  Object.fromEntries(
    Object.entries(objects).map(([key, { name, source }]) => [
      key,
      { name, prefix, ...source, ...(key === "data" ? { expireDays: 1 } : {}) },
    ]),
  );

/** The `open` of the BlobObject lifecycle for the TypeScript program, its objects under `prefix`. */
export function openBlobProgram(prefix: string) {
  return async (
    first: Record<string, BlobObjectShape>,
    options: Omit<ProgramStackOptions, "program">,
  ): Promise<BlobObjectsProgram> => {
    const program = await programStack({ ...options, program: "blobs" });
    await setBlobSpecs(program, blobSpecsOf(prefix, first));
    return {
      ...program,
      setObjects: (objects) => setBlobSpecs(program, blobSpecsOf(prefix, objects)),
      objectOutputs: () => blobOutputsOf(program),
    };
  };
}
