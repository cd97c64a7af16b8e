import { promiseForm } from "../../../sdk/nodejs/functions/forms";

describe("promiseForm", () => {
  test("passes arguments and results through", async () => {
    const add = promiseForm(async (a: number, b: number = 1) => a + b);
    expect(await add(2)).toBe(3);
    expect(await add(2, 5)).toBe(7);
  });

  test("a failure thrown before any await is a rejection, with the message as its whole stack", async () => {
    class ConfigError extends Error {
      override name = "ConfigError";
    }
    const read = promiseForm((): Promise<never> => {
      throw new ConfigError("Square Cloud API key is not set");
    });
    let rejected: unknown;
    expect(() => read().catch((error) => (rejected = error))).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejected).toBeInstanceOf(ConfigError);
    expect((rejected as Error).stack).toBe("ConfigError: Square Cloud API key is not set");
  });
});
