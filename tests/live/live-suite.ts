import { mkdirSync, writeFileSync } from "node:fs";
import type { FileReport } from "../../scripts/live/report";
import * as path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { createClient } from "../../provider/client";
import { LIST_CACHE_MS } from "../../provider/kinds/blob-object";
import type { Invitee, OperationsService, ReadsService, TeamService } from "../e2e/harness/service-suite";
import type { ProgramStack } from "../e2e/harness/stack";
import { type RecordingProxy, RequestRecorder } from "./recorder";
import { appReadsSkip, databaseReadsSkip, movedFilePath, runnerSettings } from "../../scripts/live/settings";

/** How long one live test may run: engine runs against a remote service; the limit only stops a hung test. */
const LIVE_TEST_TIMEOUT_MS = 900_000;
/** The service's blob list cache (30 s, docs/service-limits.md), twice: a listing still stale after it is a failure. */
const LIST_CACHE_LIMIT_MS = 60_000;
/** Between two listings while a stale one may still be cached. */
const LIST_POLL_MS = 2_000;

export interface LiveSuite extends TeamService, OperationsService, ReadsService {
  /** The prefix every name of this run starts with. */
  runPrefix: string;
  /** Stack config that points the provider at the service with another key, through the file's proxies. */
  configWithKey(apiKey: string): ConfigMap;
}

/**
 * A shared lifecycle's service as the live one (or whatever the provider's settings name): reached
 * only by its URLs and the owner's key, through a recording proxy per API, so that the lifecycle
 * reads the requests its stacks made as it reads the emulator's log, and the run can print them.
 * At the end the file writes what it made and every request to the run's report directory.
 */
export function liveSuite(): LiveSuite {
  jest.setTimeout(LIVE_TEST_TIMEOUT_MS);
  const settings = runnerSettings();
  const recorder = new RequestRecorder();
  let platform: RecordingProxy;
  let blob: RecordingProxy;
  const stacks: ProgramStack[] = [];
  let ownerId = "";
  let invitee: Invitee | undefined;
  let inviteeApi: ReturnType<typeof createClient> | undefined;
  const configWithKey = (apiKey: string): ConfigMap => ({
    "squarecloud:apiKey": { value: apiKey, secret: true },
    "squarecloud:platformUrl": { value: platform.url },
    "squarecloud:blobUrl": { value: blob.url },
  });
  const suite = {
    runPrefix: settings.runPrefix,
    ownerId: () => ownerId,
    config: () => configWithKey(settings.apiKey),
    configWithKey,
    // No restore: a database snapshot to spare is not something a run can count on.
    operationTargets: () => {
      const [appId] = settings.apps;
      if (!appId) throw new Error("the operations need an application; the file checks operationsSkip first");
      if (!settings.moveFile) return { appId };
      return { appId, move: { path: settings.moveFile, to: movedFilePath(settings.moveFile, settings.runPrefix) } };
    },
    // The skips' reasons are those the runner prints at the start.
    readTargets: () => ({
      app: settings.apps[0] ?? { skip: appReadsSkip(settings) as string },
      database: settings.database ?? { skip: databaseReadsSkip(settings) as string },
    }),
    teamApps: () => {
      const [first, second, third] = settings.apps;
      if (!third) throw new Error("the team tests need three applications; the file checks membershipSkip first");
      return [first, second, third] as const;
    },
    invitee: () => {
      if (!invitee)
        throw new Error("the team tests need SQUARECLOUD_LIVE_INVITEE_KEY; the file checks membershipSkip first");
      return invitee;
    },
    pastListCache: async (prefix: string, settled: (ids: string[]) => boolean) => {
      // A listing made while a stale one is cached gets that one, and does not keep it longer. The
      // service caches each query apart: the provider's own query may hold an entry from before the
      // change for the rest of the cache's life, so that life is waited out from the change on.
      const changed = Date.now();
      const deadline = changed + LIST_CACHE_LIMIT_MS;
      for (;;) {
        const ids = (await suite.api.listAllObjects(prefix)).map((object) => object.id);
        if (settled(ids)) return void (await delay(Math.max(0, changed + LIST_CACHE_MS - Date.now())));
        if (Date.now() > deadline)
          throw new Error(`the listing of ${prefix} was still not as expected after ${LIST_CACHE_LIMIT_MS} ms`);
        await delay(LIST_POLL_MS);
      }
    },
    keep: (stack: ProgramStack) => {
      stacks.push(stack);
      return stack;
    },
    log: recorder.requestLog(),
  } as LiveSuite;

  beforeAll(async () => {
    [platform, blob] = await Promise.all([recorder.proxy(settings.platformUrl), recorder.proxy(settings.blobUrl)]);
    suite.api = createClient({ apiKey: settings.apiKey, platformUrl: platform.url, blobUrl: blob.url });
    ownerId = (await suite.api.me()).user.id;
    if (settings.inviteeKey) {
      const api = createClient({ apiKey: settings.inviteeKey, platformUrl: platform.url, blobUrl: blob.url });
      inviteeApi = api;
      const { user } = await api.me();
      invitee = { id: user.id, name: user.name, inviteCode: () => api.getInviteCode() };
    }
  });
  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.dispose().catch(() => undefined)));
    await suite.api?.close();
    await inviteeApi?.close();
    await Promise.all([platform?.close(), blob?.close()]);
    mkdirSync(settings.reportDir, { recursive: true });
    const file = path.basename(expect.getState().testPath ?? "suite");
    const report: FileReport = {
      file,
      created: recorder.created,
      requests: recorder.every,
    };
    writeFileSync(path.join(settings.reportDir, `${file}.json`), `${JSON.stringify(report, null, 2)}\n`);
  });
  return suite;
}
