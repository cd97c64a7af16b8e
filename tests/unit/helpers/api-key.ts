/**
 * A placeholder API key in the environment for the tests of the suite (restored after): `check`
 * asks for a configured key once the inputs are valid, but makes no request with it.
 */
export function withPlaceholderApiKey(): void {
  const saved = process.env.SQUARECLOUD_API_KEY;
  beforeAll(() => {
    process.env.SQUARECLOUD_API_KEY = "1-unit";
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SQUARECLOUD_API_KEY;
    else process.env.SQUARECLOUD_API_KEY = saved;
  });
}
