import { apiClient, configure, providerConfig } from "../../provider/runtime";

// The provider process's configuration: stack config from configure, the environment read at each call.

const names = ["SQUARECLOUD_API_KEY", "SQUARECLOUD_BLOB_URL"] as const;
const saved = names.map((name) => process.env[name]);
afterAll(() => {
  names.forEach((name, i) => {
    if (saved[i] === undefined) delete process.env[name];
    else process.env[name] = saved[i];
  });
});

const configured = (values: Record<string, string>) =>
  configure({ config: { get: (key: string) => values[key] } } as never);

test("the same settings give the same client, a change of the environment between calls a new one", async () => {
  await configured({});
  process.env.SQUARECLOUD_API_KEY = "1-from-env";
  delete process.env.SQUARECLOUD_BLOB_URL;
  const first = apiClient();
  expect(apiClient()).toBe(first);
  process.env.SQUARECLOUD_BLOB_URL = "http://127.0.0.1:9";
  expect(providerConfig()).toMatchObject({
    blobUrl: "http://127.0.0.1:9",
    sources: { blobUrl: "SQUARECLOUD_BLOB_URL" },
  });
  expect(apiClient()).not.toBe(first);
});

test("a setting configured later takes the place of the environment's", async () => {
  process.env.SQUARECLOUD_API_KEY = "1-from-env";
  await configured({ "squarecloud:apiKey": "2-from-stack" });
  expect(providerConfig()).toMatchObject({ apiKey: "2-from-stack", sources: { apiKey: "squarecloud:apiKey" } });
});

test("a missing key is refused at every call, not only the first", async () => {
  await configured({});
  delete process.env.SQUARECLOUD_API_KEY;
  expect(() => providerConfig()).toThrow("Square Cloud API key is not set");
  expect(() => providerConfig()).toThrow("Square Cloud API key is not set");
});
