/**
 * A placeholder API key in the environment for the tests of the suite (restored after), with the
 * credentials check off: `check` asks for a configured key once the inputs are valid, and would
 * otherwise send it to the live service.
 */
export function withPlaceholderApiKey(): void {
  const names = ["SQUARECLOUD_API_KEY", "SQUARECLOUD_SKIP_CREDENTIALS_CHECK"] as const;
  const saved = names.map((name) => process.env[name]);
  beforeAll(() => {
    process.env.SQUARECLOUD_API_KEY = "1-unit";
    process.env.SQUARECLOUD_SKIP_CREDENTIALS_CHECK = "true";
  });
  afterAll(() => {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });
}
