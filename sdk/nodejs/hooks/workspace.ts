import type * as pulumi from "@pulumi/pulumi";

/** A Workspace's inputs are its args; its options may not ask to delete before replacing. */
export function prepare(name: string, args: object, opts: pulumi.CustomResourceOptions | undefined): object {
  if (opts?.deleteBeforeReplace) {
    // A rename replaces the workspace: deleting the old one first would drop the whole team
    // before anyone could join the new one.
    throw new Error(
      `Workspace "${name}": deleteBeforeReplace is not allowed: a replacement (a new name) would delete the old ` +
        `workspace, with every member, before the members can join the new one. Leave it unset.`,
    );
  }
  return args;
}
