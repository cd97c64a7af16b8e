/**
 * The native floor: a resource provider plugin with the gRPC surface of ours
 * (provider/plugin/service.ts) that does no work. It is started as ours is (bundled the same way,
 * run by the same launcher, served by the same serveResourceProvider on the same gRPC and
 * protobuf modules), configures the same way (secrets accepted, no preview), and answers each call with what
 * the floor's dynamic handlers give (lib/floor-handlers.ts): inputs echoed back, outputs of the
 * sizes ours return. What ours costs on top of it is its own: loading and running the handlers
 * and the requests they make. It seals no secret output: the native bench runs blob objects,
 * which have none.
 */
import { serveResourceProvider } from "../../provider/plugin/serve";
import { emptyproto, plugproto, provproto, struct } from "../../provider/plugin/wire";
import type { FloorKind } from "./floor";
import { handlers } from "./floor-handlers";

type Callback = (err: any, value?: unknown) => void;

/** The floor handler of a call's resource, found by the type in its URN (`urn:...::squarecloud:index:BlobObject::name`). */
function handlerOf(request: { getUrn(): string }) {
  const type = request.getUrn().split("::")[2]!.split(":")[2]!;
  return handlers[(type[0]!.toLowerCase() + type.slice(1)) as FloorKind];
}

function answer(work: (request: any) => Promise<unknown>) {
  return (call: { request: any }, callback: Callback) => {
    work(call.request).then((value) => callback(null, value), callback);
  };
}

const service = {
  getPluginInfo: answer(async () => new plugproto.PluginInfo()),
  checkConfig: answer(async (request) => {
    const response = new provproto.CheckResponse();
    response.setInputs(request.getNews());
    return response;
  }),
  diffConfig: answer(async () => {
    const response = new provproto.DiffResponse();
    response.setChanges(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    return response;
  }),
  configure: answer(async () => {
    const response = new provproto.ConfigureResponse();
    response.setAcceptsecrets(true);
    response.setSupportspreview(false);
    return response;
  }),
  check: answer(async (request) => {
    const response = new provproto.CheckResponse();
    response.setInputs(request.getNews());
    return response;
  }),
  diff: answer(async (request) => {
    const result = await handlerOf(request).diff(
      request.getId(),
      request.getOlds().toJavaScript(),
      request.getNews().toJavaScript(),
    );
    const response = new provproto.DiffResponse();
    const { DIFF_SOME, DIFF_NONE } = provproto.DiffResponse.DiffChanges;
    response.setChanges(result.changes ? DIFF_SOME : DIFF_NONE);
    return response;
  }),
  create: answer(async (request) => {
    const result = await handlerOf(request).create(request.getProperties().toJavaScript());
    const response = new provproto.CreateResponse();
    response.setId(result.id);
    response.setProperties(struct(result.outs));
    return response;
  }),
  read: answer(async (request) => {
    const response = new provproto.ReadResponse();
    response.setId(request.getId());
    response.setProperties(request.getProperties());
    response.setInputs(request.getInputs());
    return response;
  }),
  update: answer(async (request) => {
    const result = await handlerOf(request).update(
      request.getId(),
      request.getOlds().toJavaScript(),
      request.getNews().toJavaScript(),
    );
    const response = new provproto.UpdateResponse();
    response.setProperties(struct(result.outs ?? {}));
    return response;
  }),
  delete: answer(async () => new emptyproto.Empty()),
  cancel: answer(async () => new emptyproto.Empty()),
};

serveResourceProvider(service).catch((err) => {
  console.error(`native floor plugin: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
