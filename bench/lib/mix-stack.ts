import type { RunningEmulator } from "../../emulator";
import * as path from "node:path";
import { inviteCodes, providerConfig } from "./emulator-account";
import { FLOOR_PACKAGE } from "./floor-handlers";
import { type Mix, mixFor, names } from "./mix";
import { benchStack, type BenchStack } from "./stack";

export type Variant = "ours" | "floor";

/**
 * A stack of programs/mix for N resources, ours or the floor, configured against the emulator
 * with fresh invite codes (made up for the floor) and the blob objects' files in its directory.
 */
export async function mixStack(
  emulator: RunningEmulator,
  n: number,
  variant: Variant,
): Promise<BenchStack & { mix: Mix }> {
  const mix = mixFor(n);
  const codes = await inviteCodes(emulator, variant === "ours");
  const stack = await benchStack(
    "mix",
    {
      ...providerConfig(emulator),
      variant: { value: variant },
      total: { value: String(n) },
      generation: { value: "1" },
      ...Object.fromEntries(Object.entries(codes).map(([who, code]) => [`code_${who}`, { value: code, secret: true }])),
    },
    projectFiles(mix.blobs),
  );
  return { ...stack, mix };
}

/**
 * What a bench project's directory holds: the files of its first `blobs` blob objects, and the
 * floor's handlers under the package name the floor's stubs load them by, from the project's
 * node_modules, as ours load pulumi-squarecloud/provider.
 */
export function projectFiles(blobs: number): Record<string, string> {
  const files = Object.fromEntries(Array.from({ length: blobs }, (_, i) => [names.blobFile(i), names.blobText(i)]));
  files[`node_modules/${FLOOR_PACKAGE}/index.js`] =
    `module.exports = require(${JSON.stringify(path.join(__dirname, "floor-handlers.js"))});\n`;
  return files;
}

/** A run that did not do the work it is timed for would give a meaningless figure. */
export function expectChanges(
  result: { summary?: { resourceChanges?: Record<string, number> }; changeSummary?: Record<string, number> },
  kind: string,
  count: number,
): void {
  const changes = result.summary?.resourceChanges ?? result.changeSummary ?? {};
  if ((changes[kind] ?? 0) !== count)
    throw new Error(`expected ${count} "${kind}" changes, got ${JSON.stringify(changes)}`);
}
