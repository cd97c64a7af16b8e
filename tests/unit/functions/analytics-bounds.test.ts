import { type RunningEmulator, SEED_APPS, startEmulator } from "../../../emulator";
import { createClient } from "../../../provider/client";
import { getAppAnalytics } from "../../../sdk/nodejs/functions";

// getAppAnalytics with `start` and `end`: the bounds reach the API as the official clients send
// them, and the answer is the range's points between them, as the emulator computes it.

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ admin: true });
});

afterAll(async () => {
  await emulator.close();
});

test("the bounds are sent as start and end, and the result holds only the points between them", async () => {
  const config = { apiKey: emulator.accounts[0].apiKey, platformUrl: emulator.platformUrl, blobUrl: emulator.blobUrl };
  const client = createClient(config);
  try {
    const whole = await client.appAnalytics(SEED_APPS.aliceWebsite, "daily");
    const start = new Date(Date.parse(whole.visits[20].date) + 60_000).toISOString();
    const end = new Date(await emulator.admin.clock()).toISOString();
    await emulator.admin.clearRequests();

    const read = await getAppAnalytics({ appId: SEED_APPS.aliceWebsite, start, end }, config);
    expect(read).toMatchObject({ appId: SEED_APPS.aliceWebsite, range: "daily", start, end });
    expect(read.visits).toEqual(whole.visits.slice(20));
    const [request] = (await emulator.admin.requests()).filter((r) => r.route.includes("analytics"));
    expect(request).toMatchObject({ path: `/v2/apps/${SEED_APPS.aliceWebsite}/network/analytics`, status: 200 });
  } finally {
    await client.close();
  }
});
