import * as pulumi from "@pulumi/pulumi";
import type { AppFileMoveInputs } from "../provider/schemas/app-file-move";
import type { InputsOf } from "./inputs";
import { ProviderStub } from "./stub";

const provider = new ProviderStub("appFileMove");

export type AppFileMoveArgs = InputsOf<AppFileMoveInputs>;

/**
 * Moves or renames one file of an application, once: `path` and `to` are relative to the
 * application root, and the same directory with another name is a rename. The destination's
 * directory must exist. A change of any input moves again, from `path`: once moved, the file is at
 * the previous `to`, so to move it further set `path` to that. Removing the resource does not move
 * the file back. A move whose response was lost is sent once more on purpose: if the first one
 * moved the file, the second finds nothing at `path` and the move is recorded as done.
 */
export class AppFileMove extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly path: pulumi.Output<string>;
  declare readonly to: pulumi.Output<string>;
  /** ISO 8601 UTC. */
  declare readonly movedAt: pulumi.Output<string>;

  constructor(name: string, args: AppFileMoveArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { movedAt: undefined, ...args }, opts, "squarecloud", "AppFileMove");
  }
}
