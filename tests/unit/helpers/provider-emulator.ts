import { type RunningEmulator, startEmulator } from "../../../emulator";
import { createClient, type SquareCloudClient } from "../../../provider/client";
import { systemClock } from "../../../provider/client/clock";
import { useClock } from "../../../provider/runtime";
import { EmulatorLinkedClock } from "./fake-clock";

/**
 * For tests that call resource handlers directly against the emulator: one emulator per file,
 * reset before each test (see resetBeforeEach), the provider pointed at it through the
 * environment (as when the stack config leaves the settings out), the main account's key in use,
 * the provider on a fake clock whose waits move the emulator's clock (no test waits in real time),
 * and warnings silenced (kept in `warnings` for tests that check them).
 */
export interface ProviderEmulator {
  emulator: RunningEmulator;
  /** A client of the main account, for what a test does behind the provider's back. */
  api: SquareCloudClient;
  /** Makes the provider use this seeded account's key from now on. */
  useAccount(index: number): void;
  /** A client of any seeded account; close it when done. */
  clientOf(index: number): SquareCloudClient;
  /** Requests of one route ("POST /v2/apps/:id/snapshots") since the test began. */
  count(route: string): Promise<number>;
  /** The provider's warnings during the current test, silenced but kept for tests that check them. */
  warnings: string[];
  /** The provider's clock; its `sleeps` are the waits of the current test. */
  clock: EmulatorLinkedClock;
}

export interface ProviderEmulatorOptions {
  /**
   * false: only the request log is cleared before each test; state and clock carry over. A reset
   * takes the emulator's clock back to real time, which no real server's clock does, while the
   * provider process keeps what it learned of the server's clock from one test to the next.
   */
  resetBeforeEach?: boolean;
}

export function providerAgainstEmulator({ resetBeforeEach = true }: ProviderEmulatorOptions = {}): ProviderEmulator {
  const saved = { ...process.env };
  const env = {
    useAccount: (index: number) => {
      process.env.SQUARECLOUD_API_KEY = env.emulator.accounts[index].apiKey;
    },
    clientOf: (index: number) =>
      createClient({
        apiKey: env.emulator.accounts[index].apiKey,
        platformUrl: env.emulator.platformUrl,
        blobUrl: env.emulator.blobUrl,
      }),
    count: async (route: string) => (await env.emulator.admin.counters())[route] ?? 0,
    warnings: [] as string[],
  } as ProviderEmulator;

  beforeAll(async () => {
    env.emulator = await startEmulator({ admin: true });
    process.env.SQUARECLOUD_PLATFORM_URL = env.emulator.platformUrl;
    process.env.SQUARECLOUD_BLOB_URL = env.emulator.blobUrl;
    env.api = env.clientOf(0);
    env.clock = new EmulatorLinkedClock(env.emulator, await env.emulator.admin.clock());
    useClock(env.clock);
  });
  afterAll(async () => {
    useClock(systemClock);
    process.env = saved;
    await env.api?.close();
    await env.emulator?.close();
  });
  beforeEach(async () => {
    await (resetBeforeEach ? env.emulator.admin.reset() : env.emulator.admin.clearRequests());
    env.useAccount(0);
    // The provider's warnings go to stderr for the engine to show; here they are only noise.
    env.warnings.length = 0;
    env.clock.sleeps.length = 0;
    jest.spyOn(console, "warn").mockImplementation((message: string) => void env.warnings.push(message));
  });
  afterEach(() => jest.restoreAllMocks());
  return env;
}
