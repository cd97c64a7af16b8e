import { hintForNativePlugin } from "../client/emulator-hint";
import { engineAddress } from "./engine-address";
import { logWarningsTo } from "./engine-log";
import { serveResourceProvider } from "./serve";
import { resourceProviderService } from "./service";

/** The engine starts it with its address and reads the port from the first line of stdout. */
async function main(): Promise<void> {
  hintForNativePlugin();
  const engine = engineAddress();
  if (engine) logWarningsTo(engine);
  await serveResourceProvider(resourceProviderService);
}

main().catch((err) => {
  console.error(`squarecloud plugin: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
