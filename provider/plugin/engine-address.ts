/** The first argument that is not one of the logging flags the engine may pass before its address. */
export function engineAddress(args: string[] = process.argv.slice(2)): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (args[i] !== "--logtostderr" && !args[i].startsWith("-v=")) return args[i];
  }
  return undefined;
}
