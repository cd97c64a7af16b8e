import { grpc, provrpc } from "./wire";
import { engineAddress } from "./engine-address";
import { logWarningsTo } from "./engine-log";
import { resourceProviderService } from "./service";

/**
 * `pulumi-resource-squarecloud`: the engine starts it with its own address as the argument and
 * reads the port it listens on from the first line of stdout.
 */
async function main(): Promise<void> {
  const engine = engineAddress();
  if (engine) logWarningsTo(engine);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, resourceProviderService);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  console.log(String(port));
}

main().catch((err) => {
  console.error(`squarecloud plugin: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
