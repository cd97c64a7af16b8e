import { SEED_APPS } from "../../../emulator";
import { appFileMoveHandler } from "../../../provider/resources/app-file-move";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The AppFileMove handler against the emulator's seeded application files.

const env = providerAgainstEmulator();
const MOVES = "PATCH /v2/apps/:id/files";
const app = SEED_APPS.aliceWebsite;

describe("check: bad input sends nothing", () => {
  test.each([
    ["", "must not be empty"],
    ["/index.js", 'must be relative to the application root (no leading "/")'],
    ["src/../../etc/passwd", 'must not contain ".", ".." or empty segments'],
    ["src//a.js", 'must not contain ".", ".." or empty segments'],
    ["./a.js", 'must not contain ".", ".." or empty segments'],
    ["src/", 'must name a file, not end with "/"'],
    ["src\\a.js", "must not contain control characters or backslashes"],
    ["a".repeat(513), "must be at most 512 characters"],
  ])("path %j: %s", async (path, rule) => {
    const { failures } = await appFileMoveHandler.check({}, { appId: app, path, to: "ok.js" });
    expect(failures).toEqual([{ property: "path", reason: `${rule}, got ${JSON.stringify(path)}` }]);
  });

  test("a move onto itself is refused; valid paths pass", async () => {
    expect((await appFileMoveHandler.check({}, { appId: app, path: "a.js", to: "a.js" })).failures).toEqual([
      { property: "to", reason: 'must differ from path, got "a.js"' },
    ]);
    expect((await appFileMoveHandler.check({}, { appId: app, path: "src/a.js", to: "lib/b.js" })).failures).toEqual([]);
    // Valid inputs go on to the credentials check, a read; the invalid ones sent nothing.
    expect((await env.emulator.admin.requests()).map((request) => request.route)).toEqual(["GET /v2/users/me"]);
  });
});

describe("moving", () => {
  test("moves once; delete leaves the file where it is", async () => {
    const { outs } = await appFileMoveHandler.create({ appId: app, path: "index.js", to: "src/index.js" });
    expect(outs).toMatchObject({ appId: app, path: "index.js", to: "src/index.js", movedAt: expect.any(String) });
    await appFileMoveHandler.delete("id", outs);
    expect(await env.count(MOVES)).toBe(1);
    // Moving the old path again finds nothing there.
    await expect(appFileMoveHandler.create({ appId: app, path: "index.js", to: "main.js" })).rejects.toThrow(
      `application "${app}" has no file "index.js" to move (move application file "${app}" failed: FILE_NOT_FOUND ` +
        `(HTTP 404, PATCH /v2/apps/{appId}/files): The source file does not exist.)`,
    );
  });

  test("a missing destination directory is named", async () => {
    await expect(appFileMoveHandler.create({ appId: app, path: "index.js", to: "lib/util/index.js" })).rejects.toThrow(
      /the destination directory "lib\/util" does not exist in application .*DIRECTORY_NOT_FOUND/,
    );
  });

  test("a lost response of a move that happened is settled as done, never moving twice", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "PATCH", path: "/v2/apps/:id/files" },
      kind: "drop-after-commit",
      count: 1,
    });
    const { outs } = await appFileMoveHandler.create({ appId: app, path: "index.js", to: "main.js" });
    expect(outs).toMatchObject({ path: "index.js", to: "main.js" });
    expect(await env.count(MOVES)).toBe(2);
    expect(env.warnings).toEqual([expect.stringContaining("so that request moved it; recorded as done")]);
    // The file is at its destination: moving it onto itself succeeds there and fails at the source.
    await expect(env.api.moveAppFile(app, { path: "main.js", to: "main.js" })).resolves.toBeUndefined();
    await expect(env.api.moveAppFile(app, { path: "index.js", to: "index.js" })).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
  });

  test("a move refused with a 503 is retried by the client, and the retry moves the file", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "PATCH", path: "/v2/apps/:id/files" },
      kind: "status",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      count: 1,
    });
    await appFileMoveHandler.create({ appId: app, path: "index.js", to: "main.js" });
    expect(await env.count(MOVES)).toBe(2);
    await expect(env.api.moveAppFile(app, { path: "main.js", to: "main.js" })).resolves.toBeUndefined();
  });
});
