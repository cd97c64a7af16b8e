import { logWarningsTo } from "./engine-log";
import { serveResourceProvider } from "./serve";
import { resourceProviderService } from "./service";

/**
 * `pulumi-resource-squarecloud`: the engine starts it with its own address as the argument and
 * reads the port it listens on from the first line of stdout.
 */
async function main(): Promise<void> {
  const engine = engineAddress(process.argv.slice(2));
  if (engine) logWarningsTo(engine);
  await serveResourceProvider(resourceProviderService);
}

/** The engine's address: the first argument that is not one of the logging flags the engine may pass before it. */
function engineAddress(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (args[i] !== "--logtostderr" && !args[i].startsWith("-v=")) return args[i];
  }
  return undefined;
}

main().catch((err) => {
  console.error(`squarecloud plugin: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
