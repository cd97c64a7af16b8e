import { RunningEmulator, startEmulator } from "../../../emulator";

/**
 * An in-process emulator for the operation handlers' tests, with the provider pointed at it
 * through the environment (as when stack config leaves the settings out) and its warnings muted.
 */
export interface OperationEnv {
  emulator: RunningEmulator;
  useAccount(index: number): void;
  /** Requests of one route ("POST /v2/apps/:id/snapshots") since the last reset. */
  count(route: string): Promise<number>;
}

export function operationEnv(): OperationEnv {
  const saved = { ...process.env };
  const env = {
    useAccount: (index: number) => {
      process.env.SQUARECLOUD_API_KEY = env.emulator.accounts[index].apiKey;
    },
    count: async (route: string) => (await env.emulator.admin.counters())[route] ?? 0,
  } as OperationEnv;

  beforeAll(async () => {
    env.emulator = await startEmulator();
    process.env.SQUARECLOUD_PLATFORM_URL = env.emulator.platformUrl;
    process.env.SQUARECLOUD_BLOB_URL = env.emulator.blobUrl;
  });
  afterAll(async () => {
    process.env = saved;
    await env.emulator.close();
  });
  beforeEach(async () => {
    await env.emulator.admin.reset();
    env.useAccount(0);
    jest.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());
  return env;
}
