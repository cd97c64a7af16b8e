import { UNKNOWN } from "../../../provider/field-check";
import { workspaceHandler } from "../../../provider/resources/workspace";
import { workspaceMemberHandler } from "../../../provider/resources/workspace-member";
import { withPlaceholderApiKey } from "../helpers/api-key";

// check and diff of Workspace and WorkspaceMember need no API: they run at preview, before any request.

const CODE = "0123456789abcdef0123456789abcdef";
const app = (id: string) => ({ id, name: id, ram: 256, lang: "javascript" });

describe("Workspace and WorkspaceMember check", () => {
  withPlaceholderApiKey();

  test("a valid workspace passes through", async () => {
    const news = { name: "platform_team", applications: ["a1", "b2"], __provider: "stub" };
    expect(await workspaceHandler.check({}, news)).toEqual({ inputs: news, failures: [] });
  });

  test("workspace names: 3 to 32 of a-z A-Z 0-9 _", async () => {
    for (const name of ["ab", "a".repeat(33), "with-dash", "with space", 12]) {
      const { failures } = await workspaceHandler.check({}, { name });
      expect(failures).toEqual([
        {
          property: "name",
          reason: expect.stringContaining(`must be ${typeof name === "string" ? "3 to 32 characters" : "a string"}`),
        },
      ]);
      expect(failures?.[0].reason).toContain(`got ${JSON.stringify(name)}`);
    }
    expect((await workspaceHandler.check({}, { name: "a_b" })).failures).toEqual([]);
    expect((await workspaceHandler.check({}, { name: "a".repeat(32) })).failures).toEqual([]);
  });

  test("applications: a list of ids, each once; unknown entries are tolerated", async () => {
    expect((await workspaceHandler.check({}, { name: "team", applications: "a1" })).failures).toEqual([
      { property: "applications", reason: 'must be a list of application ids, got "a1"' },
    ]);
    expect((await workspaceHandler.check({}, { name: "team", applications: ["a1", "b2", "a1"] })).failures).toEqual([
      { property: "applications", reason: 'must list each application once, got ["a1"]' },
    ]);
    expect(
      (await workspaceHandler.check({}, { name: "team", applications: [UNKNOWN, UNKNOWN, "a1"] })).failures,
    ).toEqual([]);
    expect((await workspaceHandler.check({}, { name: UNKNOWN, applications: UNKNOWN })).failures).toEqual([]);
  });

  test("a valid member passes through, with or without a code", async () => {
    const news = { workspaceId: "w1", group: "admin", inviteCode: CODE, userId: "42", __provider: "stub" };
    expect(await workspaceMemberHandler.check({}, news)).toEqual({ inputs: news, failures: [] });
    expect(
      (await workspaceMemberHandler.check({}, { workspaceId: "w1", group: "view", userId: "42" })).failures,
    ).toEqual([]);
  });

  test("a new member needs a code or a userId; a member in state needs neither", async () => {
    expect((await workspaceMemberHandler.check({}, { workspaceId: "w1", group: "view" })).failures).toEqual([
      {
        property: "inviteCode",
        reason: "is required to add a new member (or set userId to take over someone who is a member already)",
      },
    ]);
    const olds = { workspaceId: "w1", group: "view", inviteCode: CODE };
    expect((await workspaceMemberHandler.check(olds, { workspaceId: "w1", group: "admin" })).failures).toEqual([]);
  });

  test('"owner" and unknown groups are refused with the reason', async () => {
    for (const group of ["owner", "member", "Admin"]) {
      const { failures } = await workspaceMemberHandler.check({}, { workspaceId: "w1", group, userId: "42" });
      expect(failures).toEqual([
        {
          property: "group",
          reason: `must be one of "admin", "maintain", "manager" or "view" ("owner" cannot be given: a workspace's owner is the account that created it), got "${group}"`,
        },
      ]);
    }
  });

  test("a bad invite code is named by its rule and length, never shown", async () => {
    // Reported against the resource, the field named in the reason: the engine prints a failed
    // property's value beside its reason, and this value is a secret.
    for (const code of [CODE.toUpperCase(), CODE.slice(1), `${CODE}0`, "g".repeat(32)]) {
      const { failures } = await workspaceMemberHandler.check(
        {},
        { workspaceId: "w1", group: "view", inviteCode: code },
      );
      expect(failures).toEqual([
        {
          property: "",
          reason: `inviteCode must be 32 hexadecimal characters (0-9, a-f), an invite code, got ${code.length} characters (hidden: a secret)`,
        },
      ]);
      expect(JSON.stringify(failures)).not.toContain(code);
    }
    const { failures } = await workspaceMemberHandler.check({}, { workspaceId: "w1", group: "view", inviteCode: 1234 });
    expect(failures?.[0].reason).toBe(
      "inviteCode must be a string, got a value that is not a string (hidden: a secret)",
    );
  });

  test("missing and malformed ids, and unknown values during preview", async () => {
    const { failures } = await workspaceMemberHandler.check({}, { userId: "a/b" });
    expect(failures?.map((f) => f.property)).toEqual(["workspaceId", "group", "userId"]);
    expect(failures?.[0].reason).toBe("is required");
    expect(
      (
        await workspaceMemberHandler.check(
          {},
          { workspaceId: UNKNOWN, group: UNKNOWN, inviteCode: UNKNOWN, userId: UNKNOWN },
        )
      ).failures,
    ).toEqual([]);
  });
});

describe("Workspace diff", () => {
  const olds = {
    name: "team",
    owner: "1",
    applications: ["a1", "b2"],
    linkedApplications: [app("a1"), app("b2")],
    members: [],
  };
  beforeEach(() => jest.spyOn(console, "warn").mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  test("the same applications in another order, or left out, change nothing", async () => {
    expect(await workspaceHandler.diff("w", olds, { name: "team", applications: ["b2", "a1"] })).toEqual({
      changes: false,
      replaces: [],
    });
    expect(await workspaceHandler.diff("w", olds, { name: "team" })).toEqual({ changes: false, replaces: [] });
  });

  test("state written before 0.1.0, with application objects in applications, diffs by their ids", async () => {
    const stored = { name: "team", owner: "1", applications: [app("a1"), app("b2")], members: [] };
    expect(await workspaceHandler.diff("w", stored, { name: "team", applications: ["b2", "a1"] })).toEqual({
      changes: false,
      replaces: [],
    });
    expect(await workspaceHandler.diff("w", stored, { name: "team", applications: ["a1"] })).toEqual({
      changes: true,
      replaces: [],
    });
  });

  test("another list of applications updates in place", async () => {
    for (const applications of [["a1"], ["a1", "b2", "c3"], [], UNKNOWN, ["a1", UNKNOWN]]) {
      expect(await workspaceHandler.diff("w", olds, { name: "team", applications })).toEqual({
        changes: true,
        replaces: [],
      });
    }
  });

  test("a new name replaces the workspace and warns what that means", async () => {
    const warned = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await workspaceHandler.diff("w", olds, { name: "team2" })).toEqual({ changes: true, replaces: ["name"] });
    const said = String(warned.mock.calls[0][0]);
    expect(said).toContain('workspace "team" (w) is renamed to "team2"');
    expect(said).toContain("REPLACES the workspace");
    expect(said).toContain("FRESH invite code");
    expect(said).toContain("GET /v2/workspaces/members/code");
    expect(said).toContain("the old workspace stays as it is");
  });

  test("a rename while adoptId names the workspace is refused", async () => {
    await expect(workspaceHandler.diff("w", olds, { name: "team2", adoptId: "w" })).rejects.toThrow(/Remove adoptId/);
  });
});

describe("WorkspaceMember diff", () => {
  const olds = { workspaceId: "w1", group: "admin", userId: "42", name: "Bob" };

  test("the invite code is ignored: changed or removed, nothing happens", async () => {
    for (const inviteCode of [undefined, CODE, UNKNOWN]) {
      expect(
        await workspaceMemberHandler.diff("w1/42", olds, {
          workspaceId: "w1",
          group: "admin",
          userId: "42",
          inviteCode,
        }),
      ).toEqual({
        changes: false,
        replaces: [],
      });
    }
  });

  test("a left-out userId means whoever the code added", async () => {
    expect(await workspaceMemberHandler.diff("w1/42", olds, { workspaceId: "w1", group: "admin" })).toEqual({
      changes: false,
      replaces: [],
    });
  });

  test("group changes in place; workspaceId and userId replace", async () => {
    expect(await workspaceMemberHandler.diff("w1/42", olds, { workspaceId: "w1", group: "view" })).toEqual({
      changes: true,
      replaces: [],
    });
    expect(await workspaceMemberHandler.diff("w1/42", olds, { workspaceId: UNKNOWN, group: "admin" })).toEqual({
      changes: true,
      replaces: ["workspaceId"],
    });
    expect(
      await workspaceMemberHandler.diff("w1/42", olds, { workspaceId: "w1", group: "admin", userId: "43" }),
    ).toEqual({
      changes: true,
      replaces: ["userId"],
    });
  });
});
