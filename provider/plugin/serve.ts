import { FIRST_ANSWER_EVENT } from "./code-cache";
import { grpc, provrpc } from "./wire";

/** On a loopback port, printed as the first line of stdout, where the engine reads it. */
export async function serveResourceProvider(service: grpc.UntypedServiceImplementation): Promise<void> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, announcingFirstAnswers(service));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  console.log(String(port));
}

/**
 * The service, each method of which tells the code cache (code-cache.ts) once it has answered its
 * first call: by then the method's code is compiled, and a cache written before lacks it.
 */
function announcingFirstAnswers(service: grpc.UntypedServiceImplementation): grpc.UntypedServiceImplementation {
  return Object.fromEntries(
    Object.entries(service).map(([name, method]) => {
      let answered = false;
      const announcing = (call: any, callback: (...args: any[]) => void) =>
        (method as (call: any, callback: (...args: any[]) => void) => void)(call, (...args) => {
          callback(...args);
          if (answered) return;
          answered = true;
          (process as NodeJS.EventEmitter).emit(FIRST_ANSWER_EVENT, name);
        });
      return [name, announcing];
    }),
  );
}
