import { ConfigError, DEFAULT_BLOB_URL, DEFAULT_PLATFORM_URL, resolveConfig } from "../../provider/config";

const ENV_NAMES = [
  "SQUARECLOUD_API_KEY",
  "SQUARECLOUD_PLATFORM_URL",
  "SQUARECLOUD_BLOB_URL",
  "SQUARECLOUD_SKIP_CREDENTIALS_CHECK",
] as const;

describe("resolveConfig", () => {
  const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
  beforeEach(() => {
    for (const name of ENV_NAMES) delete process.env[name];
  });
  afterAll(() => {
    for (const name of ENV_NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("uses the live service by default", () => {
    expect(resolveConfig({ "squarecloud:apiKey": "123456-abc" })).toEqual({
      apiKey: "123456-abc",
      platformUrl: DEFAULT_PLATFORM_URL,
      blobUrl: DEFAULT_BLOB_URL,
      sources: {
        apiKey: "squarecloud:apiKey",
        platformUrl: "the default of squarecloud:platformUrl",
        blobUrl: "the default of squarecloud:blobUrl",
      },
      skipCredentialsCheck: false,
    });
  });

  it("names where each value came from: a data source's option, stack config, the environment", () => {
    process.env.SQUARECLOUD_PLATFORM_URL = "http://127.0.0.1:5000";
    const config = resolveConfig(
      { "squarecloud:apiKey": "1-config", "squarecloud:blobUrl": "http://127.0.0.1:5001" },
      { apiKey: "2-option" },
    );
    expect(config.sources).toEqual({
      apiKey: "the data source's apiKey option",
      platformUrl: "SQUARECLOUD_PLATFORM_URL",
      blobUrl: "squarecloud:blobUrl",
    });
    expect(config.apiKey).toBe("2-option");
  });

  it("turns the credentials check off with true in config or environment, and refuses anything but true or false", () => {
    expect(
      resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:skipCredentialsCheck": "true" }).skipCredentialsCheck,
    ).toBe(true);
    process.env.SQUARECLOUD_SKIP_CREDENTIALS_CHECK = "TRUE";
    expect(resolveConfig({ "squarecloud:apiKey": "k" }).skipCredentialsCheck).toBe(true);
    expect(
      resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:skipCredentialsCheck": "false" }).skipCredentialsCheck,
    ).toBe(false);
    expect(() => resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:skipCredentialsCheck": "yes" })).toThrow(
      'squarecloud:skipCredentialsCheck (or SQUARECLOUD_SKIP_CREDENTIALS_CHECK) must be true or false: "yes"',
    );
  });

  it("prefers stack config over the environment", () => {
    process.env.SQUARECLOUD_API_KEY = "from-env";
    process.env.SQUARECLOUD_PLATFORM_URL = "http://env.example";
    const config = resolveConfig({
      "squarecloud:apiKey": "from-config",
      "squarecloud:platformUrl": "http://config.example:8080/",
    });
    expect(config.apiKey).toBe("from-config");
    expect(config.platformUrl).toBe("http://config.example:8080");
  });

  it("reads the environment at call time when config is missing or blank", () => {
    expect(() => resolveConfig()).toThrow(ConfigError);
    process.env.SQUARECLOUD_API_KEY = "123456-later";
    process.env.SQUARECLOUD_BLOB_URL = "http://127.0.0.1:9001";
    expect(resolveConfig({ "squarecloud:apiKey": "  " })).toMatchObject({
      apiKey: "123456-later",
      blobUrl: "http://127.0.0.1:9001",
    });
  });

  it("keeps a path prefix without its trailing slash", () => {
    const config = resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:blobUrl": "https://proxy.example/blob/" });
    expect(config.blobUrl).toBe("https://proxy.example/blob");
  });

  it("says how to set a missing key", () => {
    expect(() => resolveConfig({})).toThrow(/pulumi config set squarecloud:apiKey --secret.*SQUARECLOUD_API_KEY/);
  });

  it("rejects a key that would corrupt the header, without echoing it", () => {
    const attempt = () => resolveConfig({ "squarecloud:apiKey": "123456-abc\ndef" });
    expect(attempt).toThrow(/whitespace or control characters/);
    expect(attempt).not.toThrow(/abc/);
  });

  it("names the environment variable when the bad key came from there", () => {
    process.env.SQUARECLOUD_API_KEY = "123456-abc def";
    expect(() => resolveConfig()).toThrow(/whitespace or control characters; check SQUARECLOUD_API_KEY$/);
    expect(() => resolveConfig({ "squarecloud:apiKey": "123456-abc\tdef" })).toThrow(/; check squarecloud:apiKey$/);
  });

  it.each([
    ["not a url", /is not a URL/],
    ["ftp://files.example", /must be an http or https URL/],
    ["https://api.example/?token=1", /must not contain a query/],
  ])("rejects the platform URL %s", (url, reason) => {
    expect(() => resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:platformUrl": url })).toThrow(reason);
  });

  it("rejects credentials in a URL without echoing them", () => {
    const attempt = () =>
      resolveConfig({ "squarecloud:apiKey": "k", "squarecloud:blobUrl": "https://user:hunter2@blob.example" });
    expect(attempt).toThrow(/squarecloud:blobUrl \(or SQUARECLOUD_BLOB_URL\) must not contain credentials/);
    expect(attempt).not.toThrow(/hunter2/);
  });
});
