import { warn } from "../../../provider/handler";
import { asCallOn, logWarningsTo } from "../../../provider/plugin/engine-log";
import { emptyproto, engproto, engrpc, grpc } from "../../../provider/plugin/wire";

// The engine hides a native plugin's stderr: the handlers' warnings reach it through its Log
// service, under the resource of the call, before the call answers.

interface Logged {
  severity: number;
  message: string;
  urn: string;
}

let server: grpc.Server;
const logged: Logged[] = [];

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(engrpc.EngineService, {
    log: (call: { request: any }, callback: (err: null, value: unknown) => void) => {
      const request = call.request;
      logged.push({ severity: request.getSeverity(), message: request.getMessage(), urn: request.getUrn() });
      callback(null, new emptyproto.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  logWarningsTo(`127.0.0.1:${port}`);
});

afterAll(() => server.forceShutdown());

test("a warning given during a call is delivered to the engine, under that call's resource, before the call ends", async () => {
  const urn = "urn:pulumi:e2e::project::squarecloud:index:Workspace::team";
  await asCallOn(urn, async () => warn("the workspace is renamed"));
  expect(logged).toEqual([{ severity: engproto.LogSeverity.WARNING, message: "the workspace is renamed", urn }]);
});

test("a call that fails still delivers its warnings first", async () => {
  logged.length = 0;
  const failing = asCallOn("urn:x", async () => {
    warn("before the failure");
    throw new Error("failed");
  });
  await expect(failing).rejects.toThrow("failed");
  expect(logged.map((entry) => entry.message)).toEqual(["before the failure"]);
});
