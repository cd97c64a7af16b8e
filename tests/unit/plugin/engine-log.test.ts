import { warn } from "../../../provider/channels";
import { asCallOn, logWarningsTo } from "../../../provider/plugin/engine-log";
import { reportProgress } from "../../../provider/resources/blob-folder-sync/progress";
import { emptyproto, engproto, engrpc, grpc } from "../../../provider/plugin/wire";

// The engine hides a native plugin's stderr: the handlers' warnings reach it through its Log
// service, under the resource of the call, before the call answers.

interface Logged {
  severity: number;
  message: string;
  urn: string;
}

/** Messages the engine had received but not yet answered when each message arrived. */
const unansweredOnArrival: number[] = [];
let unanswered = 0;

let server: grpc.Server;
const logged: Logged[] = [];

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(engrpc.EngineService, {
    log: (call: { request: any }, callback: (err: null, value: unknown) => void) => {
      const request = call.request;
      logged.push({ severity: request.getSeverity(), message: request.getMessage(), urn: request.getUrn() });
      unansweredOnArrival.push(unanswered++);
      // A slow engine: a second message sent without waiting would arrive before this answer.
      setTimeout(() => {
        unanswered--;
        callback(null, new emptyproto.Empty());
      }, 20);
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

test("statuses reach the engine one at a time, in order, so the last one shown is the last one sent", async () => {
  logged.length = 0;
  unansweredOnArrival.length = 0;
  const progress = reportProgress('folder "site"');
  await asCallOn("urn:site", async () => {
    progress({ files: 0, totalFiles: 3, bytes: 0, totalBytes: 4096 });
    progress({ files: 3, totalFiles: 3, bytes: 4096, totalBytes: 4096 });
  });
  expect(logged.map((entry) => entry.message)).toEqual([
    'folder "site": uploaded 0 of 3 files, 0 KiB of 4 KiB',
    'folder "site": uploaded 3 of 3 files, 4 KiB of 4 KiB',
  ]);
  expect(unansweredOnArrival).toEqual([0, 0]);
});
