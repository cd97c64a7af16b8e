import { UNKNOWN } from "../../../provider/field-check";
import { databaseHandler } from "../../../provider/resources/database";
import { withPlaceholderApiKey } from "../helpers/api-key";

// check and diff need no API: they run at preview, before any request.

const valid = { name: "cache", type: "redis", memory: 512, version: "7.4.5" };

describe("Database check", () => {
  withPlaceholderApiKey();

  test("accepts valid inputs and passes them through", async () => {
    const news = { ...valid, __provider: "stub" };
    expect(await databaseHandler.check({}, news)).toEqual({ inputs: news, failures: [] });
  });

  test("names the field, the rule and the value for each bad input", async () => {
    const { failures } = await databaseHandler.check(
      {},
      { name: "my-db", type: "postgres", memory: 12.5, version: "latest" },
    );
    expect(failures).toEqual([
      { property: "name", reason: 'must contain only the letters a-z, A-Z and the digits 0-9, got "my-db"' },
      { property: "type", reason: 'must be "mongo" or "redis", got "postgres"' },
      { property: "memory", reason: "must be a whole number of MB, got 12.5" },
      { property: "version", reason: 'must be a dotted numeric engine version such as "7.4.5", got "latest"' },
    ]);
  });

  test("applies the memory minimum of the engine", async () => {
    expect((await databaseHandler.check({}, { ...valid, type: "mongo", memory: 512 })).failures).toEqual([
      { property: "memory", reason: "must be at least 1024 MB for a mongo database, got 512" },
    ]);
    expect((await databaseHandler.check({}, { ...valid, type: "redis", memory: 511 })).failures).toEqual([
      { property: "memory", reason: "must be at least 512 MB for a redis database, got 511" },
    ]);
  });

  test("reports missing required inputs", async () => {
    const failures = (await databaseHandler.check({}, { name: "cache" })).failures ?? [];
    expect(failures.map((f) => f.property)).toEqual(["type", "memory", "version"]);
    expect(failures[0].reason).toBe("is required");
  });

  test("a database already in state (imported: the API never reports a version) may leave version out", async () => {
    const imported = { name: "cache", type: "redis", memory: 512 };
    expect((await databaseHandler.check(imported, imported)).failures).toEqual([]);
    expect((await databaseHandler.check({}, imported)).failures).toEqual([
      { property: "version", reason: "is required to create a database" },
    ]);
  });

  test("tolerates unknown values during preview but still checks the known ones", async () => {
    // 768 MB is enough for a redis database: with the engine unknown, it waits for up.
    expect((await databaseHandler.check({}, { ...valid, name: UNKNOWN, type: UNKNOWN, memory: 768 })).failures).toEqual(
      [],
    );
    // 256 MB is too little for any engine, whichever it turns out to be.
    expect((await databaseHandler.check({}, { ...valid, type: UNKNOWN, memory: 256 })).failures).toEqual([
      { property: "memory", reason: "must be at least 512 MB, the least any database engine takes, got 256" },
    ]);
    expect((await databaseHandler.check({}, { ...valid, name: UNKNOWN, version: "x" })).failures).toEqual([
      { property: "version", reason: 'must be a dotted numeric engine version such as "7.4.5", got "x"' },
    ]);
  });

  test("a missing API key fails with how to set it", async () => {
    delete process.env.SQUARECLOUD_API_KEY;
    // A check failure, not a thrown error: the engine prints it once and without a stack trace.
    expect((await databaseHandler.check({}, valid)).failures).toEqual([
      { property: "", reason: expect.stringContaining("run `pulumi config set squarecloud:apiKey --secret`") },
    ]);
    process.env.SQUARECLOUD_API_KEY = "1-unit";
  });
});

describe("Database diff", () => {
  test("a version given to an imported database (none in state) is recorded in place, never a replacement", async () => {
    const imported = { name: "cache", type: "redis" as const, memory: 512 };
    expect(await databaseHandler.diff("id", imported, { ...imported, version: "7.4.5" })).toEqual({
      changes: true,
      replaces: [],
    });
    expect(await databaseHandler.diff("id", imported, { ...imported, version: UNKNOWN })).toEqual({
      changes: true,
      replaces: [],
    });
    expect(await databaseHandler.diff("id", { ...imported, version: "7.4.5" }, imported)).toEqual({
      changes: false,
      replaces: [],
    });
  });

  const olds = { ...valid, password: "p", certificate: "c", connectionUrl: "redis://default:p@h:1" };

  test("no change when the inputs match the state", async () => {
    expect(await databaseHandler.diff("id", olds, valid)).toEqual({ changes: false, replaces: [] });
  });

  test("name, memory and passwordRotation update in place", async () => {
    for (const change of [{ name: "other" }, { memory: 1024 }, { passwordRotation: "1" }]) {
      expect(await databaseHandler.diff("id", olds, { ...valid, ...change })).toEqual({ changes: true, replaces: [] });
    }
  });

  test("type and version replace", async () => {
    expect(await databaseHandler.diff("id", olds, { ...valid, type: "mongo", version: "7.0" })).toEqual({
      changes: true,
      replaces: ["type", "version"],
    });
  });

  test("an unknown value counts as a change", async () => {
    expect(await databaseHandler.diff("id", olds, { ...valid, version: UNKNOWN })).toEqual({
      changes: true,
      replaces: ["version"],
    });
  });

  test("adoptId is read at creation only", async () => {
    expect(await databaseHandler.diff("id", { ...olds, adoptId: "a" }, { ...valid, adoptId: "b" })).toEqual({
      changes: false,
      replaces: [],
    });
  });

  test("a replacement is refused while adoptId names the database itself", async () => {
    // The replacement's create would adopt the same database, then the old one's delete would delete it.
    await expect(
      databaseHandler.diff("db1", { ...olds, adoptId: "db1" }, { ...valid, version: "8.0", adoptId: "db1" }),
    ).rejects.toThrow(/cannot be replaced \(version changed\) while adoptId still names it.*Remove adoptId/);
    expect(await databaseHandler.diff("db1", olds, { ...valid, version: "8.0" })).toEqual({
      changes: true,
      replaces: ["version"],
    });
  });
});
