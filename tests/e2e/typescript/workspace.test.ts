import type { OutputMap } from "@pulumi/pulumi/automation";
import { accountClient, type EmulatorSuite, emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack, type StateResource, SECRET_SIG } from "../harness/stack";
import { type WorkspaceLifecycleContext, workspaceLifecycle } from "../lifecycles/workspace";
import {
  lifecycleRoster,
  type MemberLine,
  openTeamProgram,
  type Roster,
  rosterConfig,
  setRoster,
  type WorkspaceSpec,
} from "../lifecycles/workspace-programs";

// Workspace and WorkspaceMember through the real engine against the emulator: the life of a team
// every language shares, on one stack, with what the TypeScript SDK proves beyond it there (a
// roster of three members: codes changed or dropped, drift of one member, removals, a wrong
// person's code, a rename with spent codes); then adoption and who may do what, on one stack of
// their own.

const MEMBER_TYPE = "pulumi-nodejs:dynamic/squarecloud:WorkspaceMember";

const suite = emulatorSuite();
const alice = () => suite.emulator.accounts[0];
const invitee = (name: "bob" | "carol" | "dave") => suite.emulator.accounts[{ bob: 1, carol: 2, dave: 3 }[name]];

/** Each invitee fetches their own code with their own key, as the onboarding workflow says. */
async function inviteCodeOf(name: "bob" | "carol" | "dave"): Promise<string> {
  return codeFetchedBy(suite, invitee(name));
}

async function codeFetchedBy(
  { emulator }: EmulatorSuite,
  account: (typeof suite.emulator.accounts)[number],
): Promise<string> {
  const client = accountClient(emulator, account);
  try {
    return await client.getInviteCode();
  } finally {
    await client.close();
  }
}

async function rosterStack(roster: Roster) {
  const program = await programStack({
    program: "workspaces",
    config: { ...emulatorConfig(suite.emulator), ...rosterConfig(roster) },
  });
  return suite.keep(program);
}

async function setCode(program: ProgramStack, key: string, code: string) {
  await program.stack.setConfig(key, { value: code, secret: true });
}

/** The roster program's outputs, as an up returns them (so no further command reads them). */
function rosterOutputs(out: OutputMap) {
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
async function liveGroupsOf({ api }: EmulatorSuite, workspaceId: string): Promise<Record<string, string>> {
  const workspace = await api.getWorkspace(workspaceId);
  return Object.fromEntries(workspace.members.filter((m) => m.group !== "owner").map((m) => [m.id, m.group]));
}

async function mutatingRequestsOf({ emulator }: EmulatorSuite): Promise<string[]> {
  return (await emulator.admin.requests()).filter((r) => r.method !== "GET").map((r) => r.route);
}

const liveGroups = (workspaceId: string) => liveGroupsOf(suite, workspaceId);
const mutatingRequests = () => mutatingRequestsOf(suite);

async function failure(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (err: Error) => err,
  );
  if (!error) throw new Error("expected the operation to fail");
  return String(error.message);
}

workspaceLifecycle("onboarding_e2e", openTeamProgram, {
  afterCreate: aRosterOfThree,
  beforeDestroy: aRenameWithSpentCodes,
});

/** carol and dave join the lifecycle's team and leave it again, through the roster's scenarios. */
function aRosterOfThree(lifecycle: WorkspaceLifecycleContext) {
  const { suite } = lifecycle;
  const program = () => lifecycle.program();
  const ids = () => ({
    bob: suite.emulator.accounts[1].accountId,
    carol: suite.emulator.accounts[2].accountId,
    dave: suite.emulator.accounts[3].accountId,
  });
  const inviteCodeOf = (name: "carol" | "dave") =>
    codeFetchedBy(suite, suite.emulator.accounts[{ carol: 2, dave: 3 }[name]]);
  const liveGroups = () => liveGroupsOf(suite, lifecycle.teamId());
  const mutatingRequests = () => mutatingRequestsOf(suite);
  const codes: Record<string, string> = {};
  let roster: Roster;

  test("two more members join in one up, in two more groups, one add each; no code in plaintext in requests or state", async () => {
    codes.carol = await inviteCodeOf("carol");
    codes.dave = await inviteCodeOf("dave");
    await setCode(program(), "carolCode", codes.carol);
    await setCode(program(), "daveCode", codes.dave);
    const base = lifecycleRoster(lifecycle.team());
    roster = {
      ...base,
      members: {
        ...base.members,
        carol: { workspace: "team", group: "maintain", userId: ids().carol, codeKey: "carolCode" },
        dave: { workspace: "team", group: "view", userId: ids().dave, codeKey: "daveCode" },
      },
    };
    await setRoster(program(), roster);
    await suite.emulator.admin.clearRequests();
    const up = await program().stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 3, create: 2 });
    expect(await liveGroups()).toEqual({ [ids().bob]: "admin", [ids().carol]: "maintain", [ids().dave]: "view" });
    const out = rosterOutputs(up.outputs);
    expect(out.workspaces.team).toMatchObject({
      name: lifecycle.team().name,
      owner: suite.emulator.accounts[0].accountId,
    });
    expect(out.members.carol).toMatchObject({
      userId: ids().carol,
      group: "maintain",
      name: suite.emulator.accounts[2].name,
    });
    const log = JSON.stringify(await suite.emulator.admin.requests());
    for (const code of Object.values(codes)) expect(log).not.toContain(code);
    // One add per member: nobody was added twice or mixed up.
    expect((await suite.emulator.admin.counters())["POST /v2/workspaces/members"]).toBe(2);

    const backend = program().backendText();
    for (const code of Object.values(codes)) expect(backend).not.toContain(code);
    for (const member of await memberStates(program())) {
      expect(member.inputs?.inviteCode).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
      expect(member.outputs?.inviteCode).toBeUndefined();
    }
  });

  test("a changed code, or a code dropped from the program, changes nothing and sends nothing", async () => {
    await suite.emulator.admin.clearRequests();
    await setCode(program(), "bobCode", "0123456789abcdef0123456789abcdef");
    const { carol, ...others } = roster.members;
    roster = { ...roster, members: { ...others, carol: { ...carol, codeKey: undefined } } };
    await setRoster(program(), roster);
    expect((await program().stack.up()).summary.resourceChanges).toEqual({ same: 5 });
    expect(await mutatingRequests()).toEqual([]);
  });

  test("an out-of-band group change shows on refresh, in one request for the whole team; the next up restores it", async () => {
    await suite.api.updateWorkspaceMember({ workspaceId: lifecycle.teamId(), memberId: ids().dave, group: "admin" });
    await suite.emulator.admin.clearRequests();

    const refresh = await program().stack.refresh();
    // The engine counts drift against the program: dave. The team's member list is refreshed too.
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await suite.emulator.admin.counters()).toEqual({ "GET /v2/workspaces": 1 });
    const dave = (await memberStates(program())).find((r) => r.urn.endsWith("::dave"));
    expect(dave?.outputs?.group).toBe("admin");
    const team = (await program().resources()).find((r) => r.urn.endsWith("::team"));
    expect(
      (team?.outputs?.members as { id: string; group: string }[] | undefined)?.find((m) => m.id === ids().dave)?.group,
    ).toBe("admin");

    expect((await program().stack.up()).summary.resourceChanges).toEqual({ same: 4, update: 1 });
    expect((await liveGroups())[ids().dave]).toBe("view");
  });

  test("a member removed out of band leaves the state with a warning; the next up asks for a fresh code", async () => {
    await suite.api.removeWorkspaceMember({ workspaceId: lifecycle.teamId(), memberId: ids().carol });
    const refresh = await program().stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    expect(refresh.stdout + refresh.stderr).toContain("is no longer a member");
    expect((await memberStates(program())).map((r) => r.urn.split("::").pop()).sort()).toEqual(["bob", "dave"]);

    const message = await failure(program().stack.up());
    expect(message).toContain("inviteCode is not set");
    expect(message).toContain("GET /v2/workspaces/members/code");
    expect(message).toContain("pulumi config set --secret");

    // The workflow: carol fetches a fresh code with her own key, the owner sets it, up adds her back.
    codes.carol = await inviteCodeOf("carol");
    await setCode(program(), "carolCode", codes.carol);
    roster.members.carol.codeKey = "carolCode";
    await setRoster(program(), roster);
    expect((await program().stack.up()).summary.resourceChanges).toMatchObject({ create: 1 });
    expect((await liveGroups())[ids().carol]).toBe("maintain");
  });

  test("removing roster lines removes their members, and leaves the lifecycle's team: bob alone", async () => {
    roster = lifecycleRoster(lifecycle.team());
    await setRoster(program(), roster);
    expect((await program().stack.up()).summary.resourceChanges).toEqual({ same: 3, delete: 2 });
    expect(await liveGroups()).toEqual({ [ids().bob]: "admin" });
  });

  // The roster's erin line is left in the program: its member was never made, and the lifecycle's
  // next step declares its own team again.
  test("a wrong person's code fails for that line, and the person it added is removed again; nobody else is touched", async () => {
    codes.dave = await inviteCodeOf("dave");
    await setCode(program(), "erinCode", codes.dave);
    const erin = "100000000000000001";
    await setRoster(program(), {
      ...roster,
      members: { ...roster.members, erin: { workspace: "team", group: "admin", userId: erin, codeKey: "erinCode" } },
    });
    await suite.emulator.admin.clearRequests();

    const message = await failure(program().stack.up());
    expect(message).toContain(
      `given for user ${erin} belongs to ${suite.emulator.accounts[3].name} (user ${ids().dave})`,
    );
    expect(message).toContain("removed again");
    expect(await liveGroups()).toEqual({ [ids().bob]: "admin" });
    expect((await mutatingRequests()).sort()).toEqual(["DELETE /v2/workspaces/members", "POST /v2/workspaces/members"]);
    expect(program().backendText()).not.toContain(codes.dave);
  });
}

function aRenameWithSpentCodes({ suite, program, team, teamId }: WorkspaceLifecycleContext) {
  test("an up of another rename with the code spent by the last one fails, however often, and leaves the team whole", async () => {
    await program().setTeam({ ...team(), name: `${team().name}_v3` });
    for (let attempt = 0; attempt < 2; attempt++) {
      const message = await failure(program().stack.up());
      expect(message).toContain("INVALID_CODE");
      expect(message).toContain("GET /v2/workspaces/members/code");
      expect(await liveGroupsOf(suite, teamId())).toEqual({ [suite.emulator.accounts[1].accountId]: "manager" });
    }
  });
}

describe("adoption, and who may do what", () => {
  const WORKSPACE_TYPE = "pulumi-nodejs:dynamic/squarecloud:Workspace";
  let program: ProgramStack;
  let teamId: string;
  const bob = (): MemberLine => ({
    workspace: "crew",
    group: "view",
    userId: invitee("bob").accountId,
    codeKey: "bobCode",
  });
  const crew = (): WorkspaceSpec => ({ name: "adopt_e2e", adoptId: teamId });

  beforeAll(async () => {
    program = await rosterStack({
      workspaces: { team: { name: "adopt_e2e" } },
      members: { bob: { ...bob(), workspace: "team" } },
    });
    await setCode(program, "bobCode", await inviteCodeOf("bob"));
    teamId = rosterOutputs((await program.stack.up()).outputs).workspaces.team.id;
  });

  test("a resource renamed without aliases whose new entry adopts the workspace keeps it, with its members", async () => {
    await suite.emulator.admin.clearRequests();
    await setRoster(program, { workspaces: { crew: crew() }, members: { bob: bob() } });
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

  test("a second resource adopting a workspace the stack holds is refused, and nothing is changed; without it, one entry holds the workspace", async () => {
    await suite.emulator.admin.clearRequests();
    await setRoster(program, { workspaces: { crew: crew(), copy: crew() }, members: { bob: bob() } });
    // Which of the two the engine reaches first is the order of the program's registrations, which
    // the SDK does not fix: `copy` is refused, or `crew` is at its diff once `copy` has adopted it.
    const refusal = await failure(program.stack.up());
    expect(refusal).toMatch(/another resource of this stack (already holds it|in this update)/);
    expect(await mutatingRequests()).toEqual([]);
    expect(await liveGroups(teamId)).toEqual({ [invitee("bob").accountId]: "view" });

    // The program fixed: an entry `copy` left in the state leaves it, without deleting what `crew` keeps.
    await setRoster(program, { workspaces: { crew: crew() }, members: { bob: bob() } });
    const fixed = await program.stack.up();
    expect(fixed.summary.resourceChanges).toEqual(
      refusal.includes("in this update") ? { same: 3, delete: 1 } : { same: 3 },
    );
    expect(await mutatingRequests()).toEqual([]);
    const held = (await program.resources()).filter((r) => r.type === WORKSPACE_TYPE);
    expect(held.map((r) => [r.urn.split("::").pop(), r.id])).toEqual([["crew", teamId]]);
    expect(await liveGroups(teamId)).toEqual({ [invitee("bob").accountId]: "view" });
  });

  test("the owner cannot be a member: the owner's own code is refused with a clear error", async () => {
    const ownerCode = await codeFetchedBy(suite, alice());
    await setCode(program, "myCode", ownerCode);
    await setRoster(program, {
      workspaces: { crew: crew() },
      members: { bob: bob(), me: { workspace: "crew", group: "admin", codeKey: "myCode" } },
    });
    const message = await failure(program.stack.up());
    expect(message).toContain("CANNOT_INVITE_OWNER");
    expect(message).toContain("the workspace owner's own code");
    expect(program.backendText()).not.toContain(ownerCode);
  });

  test("a non-owner key cannot delete the workspace, and the error names the owner; the owner's destroy deletes the adopted workspace once", async () => {
    // No member left, so that the delete refused is the workspace's own.
    await setRoster(program, { workspaces: { crew: crew() }, members: {} });
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 2, delete: 1 });

    await program.stack.setConfig("squarecloud:apiKey", { value: invitee("carol").apiKey, secret: true });
    // The program runs, so the provider gets the key now in config (not the one state recorded).
    const message = await failure(program.stack.destroy({ runProgram: true }));
    expect(message).toContain(`only its owner, account ${alice().accountId}, can do this`);
    expect(message).toContain(`for account ${invitee("carol").accountId}`);
    expect((await suite.api.getWorkspace(teamId)).name).toBe("adopt_e2e");

    await program.stack.setConfig("squarecloud:apiKey", { value: alice().apiKey, secret: true });
    await program.stack.destroy({ runProgram: true });
    await expect(suite.api.getWorkspace(teamId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });
});
