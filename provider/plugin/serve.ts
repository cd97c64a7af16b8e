import { grpc, provrpc } from "./wire";

/** On a loopback port, printed as the first line of stdout, where the engine reads it. */
export async function serveResourceProvider(service: grpc.UntypedServiceImplementation): Promise<void> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  console.log(String(port));
}
