import type { ConfigMap } from "@pulumi/pulumi/automation";
import { SEED_APPS } from "../../../emulator";
import { accountClient, beyondKeyCheck, emulatorConfig, emulatorSuite } from "../emulator-env";
import { programStack, type ProgramStack, type StateResource, SECRET_SIG } from "../stack";
import { expectRenameWarning } from "../workspace-rename";

// Workspace and WorkspaceMember through the real engine against the emulator: a team onboarded
// from one roster, then the life of that team on one stack, scenario after scenario.

const MEMBER_TYPE = "pulumi-nodejs:dynamic/squarecloud:WorkspaceMember";

type WorkspaceSpec = { name: string; applications?: string[]; adoptId?: string };
type MemberLine = { workspace: string; group: string; userId?: string; codeKey?: string };
interface Roster {
  workspaces: Record<string, WorkspaceSpec>;
  members: Record<string, MemberLine>;
}

const suite = emulatorSuite();
const alice = () => suite.emulator.accounts[0];
const invitee = (name: "bob" | "carol" | "dave") => suite.emulator.accounts[{ bob: 1, carol: 2, dave: 3 }[name]];

/** Each invitee fetches their own code with their own key, as the onboarding workflow says. */
async function inviteCodeOf(name: "bob" | "carol" | "dave"): Promise<string> {
  return codeFetchedBy(invitee(name));
}

async function codeFetchedBy(account: (typeof suite.emulator.accounts)[number]): Promise<string> {
  const client = accountClient(suite.emulator, account);
  try {
    return await client.getInviteCode();
  } finally {
    await client.close();
  }
}

async function rosterStack(roster: Roster, extraConfig: ConfigMap = {}) {
  const program = await programStack({
    program: "workspaces",
    config: { ...emulatorConfig(suite.emulator), ...rosterConfig(roster), ...extraConfig },
  });
  return suite.keep(program);
}

function rosterConfig(roster: Roster): ConfigMap {
  return {
    workspaces: { value: JSON.stringify(roster.workspaces) },
    members: { value: JSON.stringify(roster.members) },
  };
}

async function setRoster(program: ProgramStack, roster: Roster) {
  await program.stack.setAllConfig(rosterConfig(roster));
}

async function setCode(program: ProgramStack, key: string, code: string) {
  await program.stack.setConfig(key, { value: code, secret: true });
}

async function outputs(program: ProgramStack) {
  const out = await program.stack.outputs();
  return {
    workspaces: out.workspaces.value as Record<
      string,
      { id: string; name: string; owner: string; members: any[]; applications: string[] }
    >,
    members: out.members.value as Record<string, { id: string; group: string; userId: string; name: string }>,
  };
}

async function memberStates(program: ProgramStack): Promise<StateResource[]> {
  return (await program.resources()).filter((r) => r.type === MEMBER_TYPE);
}

/** Live members other than the owner, as { userId: group }. */
async function liveGroups(workspaceId: string): Promise<Record<string, string>> {
  const workspace = await suite.api.getWorkspace(workspaceId);
  return Object.fromEntries(workspace.members.filter((m) => m.group !== "owner").map((m) => [m.id, m.group]));
}

async function mutatingRequests(): Promise<string[]> {
  return (await suite.emulator.admin.requests()).filter((r) => r.method !== "GET").map((r) => r.route);
}

async function failure(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (err: Error) => err,
  );
  if (!error) throw new Error("expected the operation to fail");
  return String(error.message);
}

describe("a team kept in a roster", () => {
  const apps = { website: SEED_APPS.aliceWebsite, api: SEED_APPS.aliceApi, bot: SEED_APPS.aliceBot };
  const ids = () => ({
    bob: invitee("bob").accountId,
    carol: invitee("carol").accountId,
    dave: invitee("dave").accountId,
  });
  let roster: Roster;
  let program: ProgramStack;
  let teamId: string;
  const codes: Record<string, string> = {};

  beforeEach(async () => {
    await suite.emulator.admin.clearRequests();
  });

  test("a preview with the workspace id still unknown plans the team with no request beyond the key check", async () => {
    roster = {
      workspaces: { team: { name: "onboarding_e2e", applications: [apps.website, apps.bot] } },
      members: {
        bob: { workspace: "team", group: "admin", userId: ids().bob, codeKey: "bobCode" },
        carol: { workspace: "team", group: "maintain", userId: ids().carol, codeKey: "carolCode" },
        dave: { workspace: "team", group: "view", userId: ids().dave, codeKey: "daveCode" },
      },
    };
    for (const name of ["bob", "carol", "dave"] as const) codes[name] = await inviteCodeOf(name);
    await suite.emulator.admin.clearRequests();
    program = await rosterStack(roster, {
      bobCode: { value: codes.bob, secret: true },
      carolCode: { value: codes.carol, secret: true },
      daveCode: { value: codes.dave, secret: true },
    });
    const preview = await program.stack.preview();
    expect(preview.changeSummary).toEqual({ create: 5 });
    expect(beyondKeyCheck(await suite.emulator.admin.requests())).toEqual([]);
  });

  test("one up onboards three members in three groups and links the applications", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const out = await outputs(program);
    teamId = out.workspaces.team.id;
    expect(await liveGroups(teamId)).toEqual({ [ids().bob]: "admin", [ids().carol]: "maintain", [ids().dave]: "view" });
    expect(out.members.carol).toMatchObject({ userId: ids().carol, group: "maintain", name: invitee("carol").name });
    const live = await suite.api.getWorkspace(teamId);
    expect(live.applications.map((a) => a.id).sort()).toEqual([apps.website, apps.bot].sort());
    expect(out.workspaces.team).toMatchObject({ name: "onboarding_e2e", owner: alice().accountId });
    const log = JSON.stringify(await suite.emulator.admin.requests());
    for (const code of Object.values(codes)) expect(log).not.toContain(code);
    // One add per member: nobody was added twice or mixed up.
    expect((await suite.emulator.admin.counters())["POST /v2/workspaces/members"]).toBe(3);
  });

  test("the state holds no plaintext invite code; the code input is encrypted", async () => {
    const backend = program.backendText();
    for (const code of Object.values(codes)) expect(backend).not.toContain(code);
    for (const member of await memberStates(program)) {
      expect(member.inputs?.inviteCode).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
      expect(member.outputs?.inviteCode).toBeUndefined();
    }
  });

  test("with the spent codes still in config, a preview and a second up change nothing and send nothing", async () => {
    expect((await program.stack.preview()).changeSummary).toEqual({ same: 5 });
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 5 });
    expect(await mutatingRequests()).toEqual([]);
  });

  test("a changed code, or a code dropped from the program, changes nothing and sends nothing", async () => {
    await setCode(program, "bobCode", "0123456789abcdef0123456789abcdef");
    const { carol, ...others } = roster.members;
    roster = { ...roster, members: { ...others, carol: { ...carol, codeKey: undefined } } };
    await setRoster(program, roster);
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 5 });
    expect(await mutatingRequests()).toEqual([]);
  });

  test("a group change updates the member in place", async () => {
    roster.members.carol.group = "manager";
    await setRoster(program, roster);
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 4, update: 1 });
    expect((await liveGroups(teamId))[ids().carol]).toBe("manager");
    expect(await mutatingRequests()).toEqual(["PATCH /v2/workspaces/members"]);
  });

  test("an out-of-band group change shows on refresh, in one request for the whole team; the next up restores it", async () => {
    await suite.api.updateWorkspaceMember({ workspaceId: teamId, memberId: ids().dave, group: "admin" });
    await suite.emulator.admin.clearRequests();

    const refresh = await program.stack.refresh();
    // The engine counts drift against the program: dave. The team's member list is refreshed too.
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await suite.emulator.admin.counters()).toEqual({ "GET /v2/workspaces": 1 });
    const dave = (await memberStates(program)).find((r) => r.urn.endsWith("::dave"));
    expect(dave?.outputs?.group).toBe("admin");
    const team = (await program.resources()).find((r) => r.urn.endsWith("::team"));
    expect(
      (team?.outputs?.members as { id: string; group: string }[] | undefined)?.find((m) => m.id === ids().dave)?.group,
    ).toBe("admin");

    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 4, update: 1 });
    expect((await liveGroups(teamId))[ids().dave]).toBe("view");
  });

  test("application links follow the program's list: missing ones linked, extra ones unlinked", async () => {
    roster.workspaces.team.applications = [apps.api, apps.website];
    await setRoster(program, roster);
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 4, update: 1 });
    const live = await suite.api.getWorkspace(teamId);
    expect(live.applications.map((a) => a.id).sort()).toEqual([apps.api, apps.website].sort());
    expect((await mutatingRequests()).sort()).toEqual([
      "DELETE /v2/workspaces/applications",
      "POST /v2/workspaces/applications",
    ]);
    expect((await outputs(program)).workspaces.team.applications.sort()).toEqual([apps.api, apps.website].sort());

    // Order does not matter.
    roster.workspaces.team.applications = [apps.website, apps.api];
    await setRoster(program, roster);
    expect((await program.stack.preview()).changeSummary).toEqual({ same: 5 });
  });

  test("a member removed out of band leaves the state with a warning; the next up asks for a fresh code", async () => {
    await suite.api.removeWorkspaceMember({ workspaceId: teamId, memberId: ids().carol });
    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    expect(refresh.stdout + refresh.stderr).toContain("is no longer a member");
    expect((await memberStates(program)).map((r) => r.urn.split("::").pop()).sort()).toEqual(["bob", "dave"]);

    const message = await failure(program.stack.up());
    expect(message).toContain("inviteCode is not set");
    expect(message).toContain("GET /v2/workspaces/members/code");
    expect(message).toContain("pulumi config set --secret");

    // The workflow: carol fetches a fresh code with her own key, the owner sets it, up adds her back.
    codes.carol = await inviteCodeOf("carol");
    await setCode(program, "carolCode", codes.carol);
    roster.members.carol.codeKey = "carolCode";
    await setRoster(program, roster);
    expect((await program.stack.up()).summary.resourceChanges).toMatchObject({ create: 1 });
    expect((await liveGroups(teamId))[ids().carol]).toBe("manager");
  });

  test("removing a roster line removes the member", async () => {
    const { dave: _gone, ...rest } = roster.members;
    roster = { ...roster, members: rest };
    await setRoster(program, roster);
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 4, delete: 1 });
    expect(await liveGroups(teamId)).toEqual({ [ids().bob]: "admin", [ids().carol]: "manager" });
  });

  test("a wrong person's code fails for that line, and the person it added is removed again; nobody else is touched", async () => {
    codes.dave = await inviteCodeOf("dave");
    await setCode(program, "erinCode", codes.dave);
    const erin = "100000000000000001";
    roster.members.erin = { workspace: "team", group: "admin", userId: erin, codeKey: "erinCode" };
    await setRoster(program, roster);
    await suite.emulator.admin.clearRequests();

    const message = await failure(program.stack.up());
    expect(message).toContain(`given for user ${erin} belongs to ${invitee("dave").name} (user ${ids().dave})`);
    expect(message).toContain("removed again");
    expect(await liveGroups(teamId)).toEqual({ [ids().bob]: "admin", [ids().carol]: "manager" });
    expect((await mutatingRequests()).sort()).toEqual(["DELETE /v2/workspaces/members", "POST /v2/workspaces/members"]);
    expect(program.backendText()).not.toContain(codes.dave);

    delete roster.members.erin;
    await setRoster(program, roster);
  });

  test("bad input fails at preview with the field, rule and value, never showing a code, and sends nothing", async () => {
    await setRoster(program, {
      ...roster,
      workspaces: { ...roster.workspaces, other: { name: "no spaces allowed", applications: ["x", "x"] } },
    });
    let message = await failure(program.stack.preview());
    expect(message).toMatch(/name.*3 to 32 characters.*got "no spaces allowed"/);
    expect(message).toMatch(/applications.*each application once, got \["x"\]/);

    const badCode = "NOT-A-CODE-but-secret-looking-value";
    await setCode(program, "badCode", badCode);
    await setRoster(program, {
      ...roster,
      members: {
        ...roster.members,
        boss: { workspace: "team", group: "owner", userId: "not an id", codeKey: "badCode" },
      },
    });
    message = await failure(program.stack.preview());
    expect(message).toMatch(/group.*"owner" cannot be given.*got "owner"/);
    expect(message).toMatch(/inviteCode.*32 hexadecimal characters.*got 35 characters \(hidden: a secret\)/);
    expect(message).toMatch(/userId.*an id of 1 to 64.*got "not an id"/);
    expect(message).not.toContain(badCode);
    expect(await mutatingRequests()).toEqual([]);
    await setRoster(program, roster);
  });

  test("a rename warns in the preview in plain words", async () => {
    roster.workspaces.team.name = "onboarding_e2e_v2";
    await setRoster(program, roster);
    const preview = await program.stack.preview();
    expect(preview.changeSummary).toMatchObject({ replace: 3 });
    expectRenameWarning(preview.stdout + preview.stderr);
  });

  test("an up of the rename with spent codes fails, however often, and leaves the old team whole", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const message = await failure(program.stack.up());
      expect(message).toContain("INVALID_CODE");
      expect(message).toContain("GET /v2/workspaces/members/code");
      expect(await liveGroups(teamId)).toEqual({ [ids().bob]: "admin", [ids().carol]: "manager" });
    }
  });

  test("with fresh codes the team moves, and only then is the old workspace deleted", async () => {
    codes.bob = await inviteCodeOf("bob");
    codes.carol = await inviteCodeOf("carol");
    await setCode(program, "bobCode", codes.bob);
    await setCode(program, "carolCode", codes.carol);
    const up = await program.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const moved = (await outputs(program)).workspaces.team;
    expect(moved.id).not.toBe(teamId);
    expect(await liveGroups(moved.id)).toEqual({ [ids().bob]: "admin", [ids().carol]: "manager" });
    expect((await suite.api.getWorkspace(moved.id)).applications.map((a) => a.id).sort()).toEqual(
      [apps.api, apps.website].sort(),
    );
    await expect(suite.api.getWorkspace(teamId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
    teamId = moved.id;
    expect(program.backendText()).not.toContain(codes.bob);
  });

  test("destroy removes the members and the workspace", async () => {
    await program.stack.destroy();
    await expect(suite.api.getWorkspace(teamId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });
});

describe("who may do what", () => {
  test("a non-owner key cannot delete the workspace, and the error names the owner", async () => {
    const program = await rosterStack({ workspaces: { lone: { name: "lone_e2e" } }, members: {} });
    await program.stack.up();
    const { id } = (await outputs(program)).workspaces.lone;

    await program.stack.setConfig("squarecloud:apiKey", { value: invitee("carol").apiKey, secret: true });
    // The program runs, so the provider gets the key now in config (not the one state recorded).
    const message = await failure(program.stack.destroy({ runProgram: true }));
    expect(message).toContain(`only its owner, account ${alice().accountId}, can do this`);
    expect(message).toContain(`for account ${invitee("carol").accountId}`);
    expect((await suite.api.getWorkspace(id)).name).toBe("lone_e2e");

    await program.stack.setConfig("squarecloud:apiKey", { value: alice().apiKey, secret: true });
    await program.stack.destroy({ runProgram: true });
    await expect(suite.api.getWorkspace(id)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });

  test("the owner cannot be a member: the owner's own code is refused with a clear error", async () => {
    const ownerCode = await codeFetchedBy(alice());
    const program = await rosterStack(
      {
        workspaces: { own: { name: "own_e2e" } },
        members: { me: { workspace: "own", group: "admin", codeKey: "myCode" } },
      },
      { myCode: { value: ownerCode, secret: true } },
    );
    const message = await failure(program.stack.up());
    expect(message).toContain("CANNOT_INVITE_OWNER");
    expect(message).toContain("the workspace owner's own code");
    expect(program.backendText()).not.toContain(ownerCode);
  });
});

describe("adoption", () => {
  const WORKSPACE_TYPE = "pulumi-nodejs:dynamic/squarecloud:Workspace";
  let program: ProgramStack;
  let teamId: string;

  beforeAll(async () => {
    program = await rosterStack({
      workspaces: { team: { name: "adopt_e2e" } },
      members: { bob: { workspace: "team", group: "view", userId: invitee("bob").accountId, codeKey: "bobCode" } },
    });
    await setCode(program, "bobCode", await inviteCodeOf("bob"));
    await program.stack.up();
    teamId = (await outputs(program)).workspaces.team.id;
  });

  test("a resource renamed without aliases whose new entry adopts the workspace keeps it, with its members", async () => {
    await suite.emulator.admin.clearRequests();
    await setRoster(program, {
      workspaces: { crew: { name: "adopt_e2e", adoptId: teamId } },
      members: { bob: { workspace: "crew", group: "view", userId: invitee("bob").accountId, codeKey: "bobCode" } },
    });
    const result = await program.stack.up();
    expect(result.stdout).toContain(
      `workspace "adopt_e2e" (${teamId}) is now held by another resource of this stack; it leaves the state but is not deleted`,
    );
    expect(await mutatingRequests()).toEqual([]);
    expect(await liveGroups(teamId)).toEqual({ [invitee("bob").accountId]: "view" });
    const held = (await program.resources()).filter((r) => r.type === WORKSPACE_TYPE);
    expect(held.map((r) => [r.urn.split("::").pop(), r.id])).toEqual([["crew", teamId]]);
    await program.stack.preview({ expectNoChanges: true });
  });

  test("a second resource adopting a workspace the stack holds is refused, and nothing is changed", async () => {
    await suite.emulator.admin.clearRequests();
    await setRoster(program, {
      workspaces: { crew: { name: "adopt_e2e", adoptId: teamId }, copy: { name: "adopt_e2e", adoptId: teamId } },
      members: { bob: { workspace: "crew", group: "view", userId: invitee("bob").accountId, codeKey: "bobCode" } },
    });
    expect(await failure(program.stack.up())).toMatch(
      /another resource of this stack (already holds it|in this update)/,
    );
    expect(await mutatingRequests()).toEqual([]);
    expect(await liveGroups(teamId)).toEqual({ [invitee("bob").accountId]: "view" });
  });

  test("destroy deletes the adopted workspace once", async () => {
    await program.stack.destroy();
    await expect(suite.api.getWorkspace(teamId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });
});
