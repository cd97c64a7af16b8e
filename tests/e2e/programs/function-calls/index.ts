// Reads the data sources named in config `calls` (an object: output name -> { fn, args }, the
// function as the package schema names it) with each function's Output form, and exports each
// result as a stack output of that name: one program for any set of reads, whose outputs are laid
// out as those of the YAML and Python programs of the same lifecycles.
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

interface Call {
  fn: string;
  args?: Record<string, unknown>;
  via?: string;
}

type OutputForm = (args?: Record<string, unknown>) => pulumi.Output<unknown>;

function outputForm({ fn, via }: Call): OutputForm {
  if (via !== undefined) throw new Error(`${fn}: this program reads through the stack's provider alone, not ${via}`);
  const form = (sq as unknown as Record<string, OutputForm | undefined>)[`${fn}Output`];
  if (typeof form !== "function") throw new Error(`the package has no data source ${fn}`);
  return form;
}

const calls = new pulumi.Config().requireObject<Record<string, Call>>("calls");

// The stack's outputs are the program's exports: one per call.
for (const [name, call] of Object.entries(calls))
  (exports as Record<string, unknown>)[name] = outputForm(call)(call.args);
