import * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "../../../provider/config";
import { sessionFor } from "../../../sdk/nodejs/functions/session";
import { reply, StubServer } from "../helpers/stub-server";

// Configuration as a program's process sees it: stack config, then the environment.

describe("sessionFor", () => {
  const names = ["SQUARECLOUD_API_KEY", "SQUARECLOUD_SKIP_CREDENTIALS_CHECK"] as const;
  const saved = names.map((name) => process.env[name]);
  beforeEach(() => {
    for (const name of names) delete process.env[name];
  });
  afterAll(() => {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });

  test("a missing key says how to set it", () => {
    expect(() => sessionFor()).toThrow(ConfigError);
    expect(() => sessionFor()).toThrow(
      "run `pulumi config set squarecloud:apiKey --secret` or set the SQUARECLOUD_API_KEY",
    );
  });

  test("one client per configuration", () => {
    process.env.SQUARECLOUD_API_KEY = "1-from-env";
    const fromEnv = sessionFor();
    expect(sessionFor()).toBe(fromEnv);
    expect(sessionFor({ apiKey: "2-other" })).not.toBe(fromEnv);
    expect(sessionFor({ platformUrl: "http://127.0.0.1:9" })).not.toBe(fromEnv);
    expect(sessionFor({ apiKey: "1-from-env" })).toBe(fromEnv);
  });

  test("stack config comes before the environment", () => {
    process.env.SQUARECLOUD_API_KEY = "1-from-env";
    pulumi.runtime.setConfig("squarecloud:apiKey", "3-from-stack");
    expect(sessionFor()).toBe(sessionFor({ apiKey: "3-from-stack" }));
    expect(sessionFor()).not.toBe(sessionFor({ apiKey: "1-from-env" }));
  });

  test("an empty key in opts counts as unset: stack config still applies", () => {
    pulumi.runtime.setConfig("squarecloud:apiKey", "6-from-stack");
    expect(sessionFor({ apiKey: "" })).toBe(sessionFor({ apiKey: "6-from-stack" }));
    expect(sessionFor({ apiKey: "  " })).toBe(sessionFor({ apiKey: "6-from-stack" }));
  });

  test("reads are shared by function and arguments within one configuration", async () => {
    process.env.SQUARECLOUD_SKIP_CREDENTIALS_CHECK = "true";
    const session = sessionFor({ apiKey: "4-reads" });
    let calls = 0;
    const read = () => session.read("getApp", { id: "a" }, async () => ++calls);
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    expect(await sessionFor({ apiKey: "5-other" }).read("getApp", { id: "a" }, async () => ++calls)).toBe(2);
  });

  test("the settings are checked once, before the first read; a refused key fails every read with that one error", async () => {
    const stub = await StubServer.start();
    stub.handler = reply(401, {
      status: "error",
      code: "ACCESS_DENIED",
      message: "The API key is missing or invalid.",
    });
    try {
      const session = sessionFor({ apiKey: "7-refused", platformUrl: stub.url });
      let calls = 0;
      const reads = [
        session.read("getApp", { id: "a" }, async () => ++calls),
        session.read("getApp", { id: "b" }, async () => ++calls),
      ];
      const [first, second] = await Promise.all(
        reads.map((read) =>
          read.then(
            () => undefined,
            (error: unknown) => error,
          ),
        ),
      );
      expect(first).toBe(second);
      expect(String(first)).toContain("The API key was refused; it came from the data source's apiKey option");
      await expect(session.read("getApp", { id: "c" }, async () => ++calls)).rejects.toBe(first);
      expect(calls).toBe(0);
      expect(stub.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual(["GET /v2/users/me"]);
    } finally {
      await stub.close();
    }
  });
});
