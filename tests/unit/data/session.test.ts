import * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "../../../provider/config";
import { sessionFor } from "../../../sdk/data/session";

// Configuration as a program's process sees it: stack config, then the environment.

describe("sessionFor", () => {
  const saved = process.env.SQUARECLOUD_API_KEY;
  beforeEach(() => delete process.env.SQUARECLOUD_API_KEY);
  afterAll(() => {
    if (saved === undefined) delete process.env.SQUARECLOUD_API_KEY;
    else process.env.SQUARECLOUD_API_KEY = saved;
  });

  test("a missing key says how to set it", () => {
    expect(() => sessionFor()).toThrow(ConfigError);
    expect(() => sessionFor()).toThrow("run `pulumi config set squarecloud:apiKey --secret` or set the SQUARECLOUD_API_KEY");
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
    const session = sessionFor({ apiKey: "4-reads" });
    let calls = 0;
    const read = () => session.read("getApp", { id: "a" }, async () => ++calls);
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    expect(await sessionFor({ apiKey: "5-other" }).read("getApp", { id: "a" }, async () => ++calls)).toBe(2);
  });
});
