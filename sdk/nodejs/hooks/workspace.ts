import type * as pulumi from "@pulumi/pulumi";
import { deleteBeforeReplaceRefused } from "../../../provider/resources/workspace/replacement";

/** A Workspace's inputs are its args; its options may not ask to delete before replacing. */
export function prepare(name: string, args: object, opts: pulumi.CustomResourceOptions | undefined): object {
  // A rename replaces the workspace: deleting the old one first would drop the whole team
  // before anyone could join the new one.
  if (opts?.deleteBeforeReplace) throw new Error(deleteBeforeReplaceRefused(`Workspace "${name}"`));
  return args;
}
