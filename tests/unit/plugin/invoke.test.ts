import { SEED_APPS } from "../../../emulator";
import { invoke } from "../../../provider/plugin/invoke";
import { provproto, structproto } from "../../../provider/plugin/wire";
import { SECRET_SIG, SIG_KEY } from "../../../provider/signatures";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The plugin's invoke against the emulator: the result as the engine receives it, the failures'
// messages, and the memo shared with the TypeScript SDK's reads.

const env = providerAgainstEmulator({ resetBeforeEach: false });

function request(name: string, args: Record<string, unknown> = {}) {
  const req = new provproto.InvokeRequest();
  req.setTok(`squarecloud:index:${name}`);
  req.setArgs(structproto.Struct.fromJavaScript(args));
  return req;
}

async function returned(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const response = await invoke(request(name, args));
  return (response as { getReturn(): { toJavaScript(): Record<string, any> } }).getReturn().toJavaScript();
}

async function failure(name: string, args: Record<string, unknown> = {}): Promise<string> {
  return invoke(request(name, args)).then(
    () => "",
    (error: Error) => error.message,
  );
}

test("a snapshot's key comes back as a secret, in a list or at the top, and nothing else does", async () => {
  const { scope, entries } = await returned("getSnapshots", { scope: "databases" });
  expect(scope).toBe("databases");
  expect(entries.length).toBeGreaterThan(0);
  for (const entry of entries) {
    expect(entry.key).toEqual({ [SIG_KEY]: SECRET_SIG, value: expect.any(String) });
    expect(typeof entry.name).toBe("string");
  }
  const latest = await returned("getLatestDatabaseSnapshot", { databaseId: entries[0].name });
  expect(latest.key).toEqual({ [SIG_KEY]: SECRET_SIG, value: entries[0].key.value });
  expect(latest.modified).toBe(entries[0].modified);
});

test("a result read with a secret argument is secret in every field", async () => {
  const result = await returned("getAppAnalytics", { appId: { [SIG_KEY]: SECRET_SIG, value: SEED_APPS.aliceBot } });
  expect(Object.keys(result).length).toBeGreaterThan(2);
  for (const value of Object.values(result)) expect(value).toMatchObject({ [SIG_KEY]: SECRET_SIG });
  expect(result.appId.value).toBe(SEED_APPS.aliceBot);
});

test("a bad argument fails with the TypeScript SDK's message, before any request", async () => {
  expect(await failure("getApp", { id: "not an id!" })).toBe(
    `getApp: id must be an id of 1 to 64 letters, digits, '_' or '-', got "not an id!"`,
  );
  expect(await failure("getApp", {})).toBe("getApp: give id or name");
  expect(await env.emulator.admin.requests()).toEqual([]);
});

test("any other failure names the function", async () => {
  expect(await failure("getApp", { name: "Nobody" })).toMatch(
    /^getApp: no application is named "Nobody"; the account has /,
  );
  expect(await failure("getLatestDatabaseSnapshot", { databaseId: "nosnapshots" })).toBe(
    'getLatestDatabaseSnapshot: database "nosnapshots" has no snapshots',
  );
  expect(await failure("getNothing")).toBe("unknown function squarecloud:index:getNothing");
});

test("reading the same thing twice makes one request", async () => {
  const first = await returned("getAppDeployments", { appId: SEED_APPS.aliceWebsite });
  expect(await returned("getAppDeployments", { appId: SEED_APPS.aliceWebsite })).toEqual(first);
  expect(await env.count("GET /v2/apps/:id/deployments")).toBe(1);
});
