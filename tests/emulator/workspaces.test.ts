import { SEED_ACCOUNTS, SEED_APPS, SEED_WORKSPACES } from "../../emulator";
import { KEYS, expectError, expectSuccess, useEmulator } from "./helpers";

const env = useEmulator();
const team = SEED_WORKSPACES.aliceTeam.id;
const { alice, bob, carol, dave } = SEED_ACCOUNTS;

async function inviteCode(key: string): Promise<string> {
  return expectSuccess(await env.platform("GET", "/v2/workspaces/members/code", { key })).code;
}

async function workspace(id: string = team, key: string = KEYS.alice) {
  return expectSuccess(await env.platform("GET", `/v2/workspaces/${id}`, { key }));
}

describe("reading workspaces", () => {
  test("GET /v2/workspaces lists owned and joined workspaces with members and apps", async () => {
    const mine = expectSuccess(await env.platform("GET", "/v2/workspaces"));
    expect(mine).toEqual([
      {
        id: team,
        name: "platform_team",
        owner: alice.accountId,
        members: [
          { id: alice.accountId, name: alice.name, group: "owner", joinedAt: expect.any(String) },
          { id: bob.accountId, name: bob.name, group: "admin", joinedAt: expect.any(String) },
          { id: dave.accountId, name: dave.name, group: "view", joinedAt: expect.any(String) },
        ],
        applications: [{ id: SEED_APPS.aliceApi, name: "Alice API", ram: 512, lang: "typescript" }],
        createdAt: expect.any(String),
      },
    ]);
    const bobs = expectSuccess(await env.platform("GET", "/v2/workspaces", { key: KEYS.bob }));
    expect(bobs.map((w: { id: string }) => w.id).sort()).toEqual([team, SEED_WORKSPACES.bobLab.id].sort());
    expect(expectSuccess(await env.platform("GET", "/v2/workspaces", { key: KEYS.carol }))).toEqual([]);
  });

  test("GET /v2/workspaces/{id}: members read it, everyone else gets 404 WORKSPACE_NOT_FOUND", async () => {
    expect((await workspace(team, KEYS.dave)).id).toBe(team);
    expectError(await env.platform("GET", `/v2/workspaces/${team}`, { key: KEYS.carol }), 404, "WORKSPACE_NOT_FOUND");
    expectError(await env.platform("GET", "/v2/workspaces/aaaaaaaaaaaaaaaaaaaaaaaa"), 404, "WORKSPACE_NOT_FOUND");
  });
});

describe("creating and deleting", () => {
  test("POST /v2/workspaces makes the caller owner and returns only id, owner, name, createdAt", async () => {
    const created = expectSuccess(
      await env.platform("POST", "/v2/workspaces", { key: KEYS.carol, json: { name: "carol_crew" } }),
    );
    expect(created).toEqual({
      id: expect.any(String),
      owner: carol.accountId,
      name: "carol_crew",
      createdAt: expect.any(String),
    });
    const full = await workspace(created.id, KEYS.carol);
    expect(full.members).toEqual([
      { id: carol.accountId, name: carol.name, group: "owner", joinedAt: created.createdAt },
    ]);
  });

  test.each([["ab"], ["a".repeat(33)], ["bad-name"], ["with space"], [""], [7]])(
    "name %j is 400 INVALID_NAME",
    async (name) => {
      expectError(await env.platform("POST", "/v2/workspaces", { json: { name } }), 400, "INVALID_NAME");
      expect(expectSuccess(await env.platform("GET", "/v2/workspaces"))).toHaveLength(1);
    },
  );

  test("an account may own a limited number of workspaces: WORKSPACE_LIMIT_REACHED", async () => {
    for (let i = 0; i < 10; i++)
      expectSuccess(await env.platform("POST", "/v2/workspaces", { key: KEYS.dave, json: { name: `ws_${i}` } }));
    expectError(
      await env.platform("POST", "/v2/workspaces", { key: KEYS.dave, json: { name: "one_more" } }),
      400,
      "WORKSPACE_LIMIT_REACHED",
    );
  });

  test("only the owner deletes; members get PERMISSION_DENIED, others WORKSPACE_NOT_FOUND; apps stay", async () => {
    expectError(
      await env.platform("DELETE", "/v2/workspaces", { key: KEYS.bob, json: { workspaceId: team } }),
      403,
      "PERMISSION_DENIED",
    );
    expectError(
      await env.platform("DELETE", "/v2/workspaces", { key: KEYS.carol, json: { workspaceId: team } }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
    expectSuccess(await env.platform("DELETE", "/v2/workspaces", { json: { workspaceId: team } }));
    expectError(await env.platform("GET", `/v2/workspaces/${team}`), 404, "WORKSPACE_NOT_FOUND");
    expectError(await env.platform("GET", `/v2/workspaces/${team}`, { key: KEYS.bob }), 404, "WORKSPACE_NOT_FOUND");
    expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}`));
    // The link is gone with the workspace: bob no longer reaches the app.
    expectError(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}`, { key: KEYS.bob }), 404, "APP_NOT_FOUND");
  });

  test("a missing or malformed workspaceId is 400 INVALID_ID", async () => {
    expectError(await env.platform("DELETE", "/v2/workspaces", { json: {} }), 400, "INVALID_ID");
    expectError(
      await env.platform("DELETE", "/v2/workspaces", { json: { workspaceId: "../../x" } }),
      400,
      "INVALID_ID",
    );
  });
});

describe("leaving", () => {
  test("a member leaves and loses access at once", async () => {
    expectSuccess(
      await env.platform("DELETE", "/v2/workspaces/leave", { key: KEYS.dave, json: { workspaceId: team } }),
    );
    expectError(await env.platform("GET", `/v2/workspaces/${team}`, { key: KEYS.dave }), 404, "WORKSPACE_NOT_FOUND");
    expectError(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceApi}`, { key: KEYS.dave }), 404, "APP_NOT_FOUND");
  });

  test("the owner cannot leave: 400 CANNOT_LEAVE_OWNER; strangers get WORKSPACE_NOT_FOUND", async () => {
    expectError(
      await env.platform("DELETE", "/v2/workspaces/leave", { json: { workspaceId: team } }),
      400,
      "CANNOT_LEAVE_OWNER",
    );
    expectError(
      await env.platform("DELETE", "/v2/workspaces/leave", { key: KEYS.carol, json: { workspaceId: team } }),
      404,
      "WORKSPACE_NOT_FOUND",
    );
  });
});

describe("invite codes and members", () => {
  const add = (code: unknown, group: unknown, key: string = KEYS.alice) =>
    env.platform("POST", "/v2/workspaces/members", { key, json: { workspaceId: team, code, group } });

  test("GET /v2/workspaces/members/code: 32 hex, stable while valid, renewed after 5 minutes", async () => {
    const code = await inviteCode(KEYS.carol);
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(await inviteCode(KEYS.carol)).toBe(code);
    expect(await inviteCode(KEYS.dave)).not.toBe(code);
    await env.emu.admin.advanceClock(5 * 60_000);
    expect(await inviteCode(KEYS.carol)).not.toBe(code);
  });

  test("the owner adds a member with the invitee's code; the code is single use", async () => {
    const code = await inviteCode(KEYS.carol);
    expect((await add(code, "maintain")).body).toEqual({ status: "success" });
    const members = (await workspace()).members;
    expect(members).toContainEqual({
      id: carol.accountId,
      name: carol.name,
      group: "maintain",
      joinedAt: expect.any(String),
    });
    expect((await workspace(team, KEYS.carol)).id).toBe(team);
    expectError(await add(code, "view"), 400, "INVALID_CODE");
  });

  test("unknown, malformed and expired codes are 400 INVALID_CODE", async () => {
    expectError(await add("0".repeat(32), "view"), 400, "INVALID_CODE");
    expectError(await add("not-a-code", "view"), 400, "INVALID_CODE");
    expectError(await add(12, "view"), 400, "INVALID_CODE");
    const code = await inviteCode(KEYS.carol);
    await env.emu.admin.advanceClock(5 * 60_000 + 1);
    expectError(await add(code, "view"), 400, "INVALID_CODE");
  });

  test("groups: owner is not assignable and unknown groups are refused, with INVALID_GROUP", async () => {
    const code = await inviteCode(KEYS.carol);
    expectError(await add(code, "owner"), 400, "INVALID_GROUP");
    expectError(await add(code, "member"), 400, "INVALID_GROUP");
    // The refused attempts did not spend the code.
    expectSuccess(await add(code, "manager"));
  });

  test("CANNOT_INVITE_OWNER, MEMBER_ALREADY_ADDED, and only the owner may add", async () => {
    expectError(await add(await inviteCode(KEYS.alice), "admin"), 400, "CANNOT_INVITE_OWNER");
    expectError(await add(await inviteCode(KEYS.bob), "view"), 409, "MEMBER_ALREADY_ADDED");
    expectError(await add(await inviteCode(KEYS.carol), "view", KEYS.bob), 403, "PERMISSION_DENIED");
    expectError(await add(await inviteCode(KEYS.carol), "view", KEYS.carol), 404, "WORKSPACE_NOT_FOUND");
  });

  test("PATCH members: owner and admins change groups; others get PERMISSION_DENIED", async () => {
    const patch = (memberId: string, group: string, key: string) =>
      env.platform("PATCH", "/v2/workspaces/members", { key, json: { workspaceId: team, memberId, group } });
    expectSuccess(await patch(dave.accountId, "maintain", KEYS.bob));
    expect((await workspace()).members.find((m: { id: string }) => m.id === dave.accountId).group).toBe("maintain");
    expectSuccess(await patch(bob.accountId, "manager", KEYS.alice));
    expectError(await patch(dave.accountId, "admin", KEYS.bob), 403, "PERMISSION_DENIED"); // bob is now manager
    expectError(await patch(alice.accountId, "view", KEYS.alice), 400, "CANNOT_EDIT_OWNER");
    expectError(await patch(carol.accountId, "view", KEYS.alice), 404, "MEMBER_NOT_FOUND");
    expectError(await patch(dave.accountId, "owner", KEYS.alice), 400, "INVALID_GROUP");
  });

  test("DELETE members: owner only; the owner cannot be removed", async () => {
    const remove = (memberId: string, key: string) =>
      env.platform("DELETE", "/v2/workspaces/members", { key, json: { workspaceId: team, memberId } });
    expectError(await remove(dave.accountId, KEYS.bob), 403, "PERMISSION_DENIED");
    expectError(await remove(alice.accountId, KEYS.alice), 400, "CANNOT_EDIT_OWNER");
    expectSuccess(await remove(dave.accountId, KEYS.alice));
    expectError(await remove(dave.accountId, KEYS.alice), 404, "MEMBER_NOT_FOUND");
    expectError(await env.platform("GET", `/v2/workspaces/${team}`, { key: KEYS.dave }), 404, "WORKSPACE_NOT_FOUND");
  });
});

describe("linked applications", () => {
  const link = (appId: string, key: string = KEYS.alice, method = "POST") =>
    env.platform(method, "/v2/workspaces/applications", { key, json: { workspaceId: team, appId } });

  test("the owner links and unlinks own apps", async () => {
    expectSuccess(await link(SEED_APPS.aliceWebsite));
    expect((await workspace()).applications.map((a: { id: string }) => a.id)).toEqual([
      SEED_APPS.aliceApi,
      SEED_APPS.aliceWebsite,
    ]);
    expectSuccess(await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}`, { key: KEYS.bob }));
    expectError(await link(SEED_APPS.aliceWebsite), 409, "APP_ALREADY_IN_WORKSPACE");
    expectSuccess(await link(SEED_APPS.aliceWebsite, KEYS.alice, "DELETE"));
    expectError(await link(SEED_APPS.aliceWebsite, KEYS.alice, "DELETE"), 404, "APP_NOT_FOUND");
    expectError(
      await env.platform("GET", `/v2/apps/${SEED_APPS.aliceWebsite}`, { key: KEYS.bob }),
      404,
      "APP_NOT_FOUND",
    );
  });

  test("other people's apps cannot be linked, and only the owner links", async () => {
    expectError(await link(SEED_APPS.bobPortfolio), 404, "APP_NOT_FOUND");
    expectError(await link("ffffffffffffffffffffffffffffffff"), 404, "APP_NOT_FOUND");
    expectError(await link(SEED_APPS.bobPortfolio, KEYS.bob), 403, "PERMISSION_DENIED");
    expectError(await link(SEED_APPS.aliceApi, KEYS.bob, "DELETE"), 403, "PERMISSION_DENIED");
  });
});
