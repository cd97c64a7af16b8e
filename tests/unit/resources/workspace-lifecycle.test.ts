import { SEED_APPS } from "../../../emulator";
import { workspaceHandler } from "../../../provider/resources/workspace";
import { workspaceMemberHandler } from "../../../provider/resources/workspace-member";
import type { WorkspaceOutputs } from "../../../provider/kinds/workspace";
import type { WorkspaceMemberOutputs } from "../../../provider/kinds/workspace-member";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The Workspace and WorkspaceMember handlers' risky paths, called directly against the emulator
// with injected faults: no engine, so each failure mode is set up exactly.

const env = providerAgainstEmulator();
const PROVIDER = "serialized-stub";
const useAccount = (index: number) => env.useAccount(index);

/** The invitee's own code, fetched with their own key. */
async function codeOf(index: number): Promise<string> {
  const client = env.clientOf(index);
  try {
    return await client.getInviteCode();
  } finally {
    await client.close();
  }
}

const bob = () => env.emulator.accounts[1].accountId;
const carol = () => env.emulator.accounts[2].accountId;
const counter = async (route: string) => (await env.emulator.admin.counters())[route] ?? 0;

async function newWorkspace(name: string, applications?: string[]) {
  const { id, outs } = await workspaceHandler.create({ name, applications, __provider: PROVIDER });
  return { id, outs: outs as WorkspaceOutputs };
}

describe("Workspace", () => {
  test("an application the API calls already in a workspace, but not in this one, fails clearly", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/workspaces/applications" },
      kind: "status",
      status: 409,
      code: "APP_ALREADY_IN_WORKSPACE",
      count: 1,
    });
    await expect(newWorkspace("elsewhere", [SEED_APPS.aliceApi])).rejects.toThrow(
      `(APP_ALREADY_IN_WORKSPACE), but it is not linked to this one. Unlink it from the other workspace`,
    );
  });

  test("create links the listed applications and reports owner, members and links", async () => {
    const { id, outs } = await newWorkspace("unit_team", [SEED_APPS.aliceApi, SEED_APPS.aliceBot]);
    expect(outs).toMatchObject({
      name: "unit_team",
      owner: env.emulator.accounts[0].accountId,
      createdAt: expect.any(String),
    });
    expect(outs.members?.map((m) => m.group)).toEqual(["owner"]);
    expect(outs.applications?.sort()).toEqual([SEED_APPS.aliceApi, SEED_APPS.aliceBot].sort());
    expect(outs.linkedApplications?.map((a) => [a.id, a.name]).sort()).toEqual(
      [
        [SEED_APPS.aliceApi, "Alice API"],
        [SEED_APPS.aliceBot, "Alice Bot"],
      ].sort(),
    );
    // The language under its name and, for a release, under the API's `lang` too.
    for (const app of outs.linkedApplications ?? []) expect(app.lang).toBe(app.language);
    expect(outs.linkedApplications?.every((app) => app.language !== undefined)).toBe(true);
    expect((await env.api.getWorkspace(id)).applications).toHaveLength(2);
  });

  test("a create whose response is lost is found by listing, not sent twice", async () => {
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/workspaces" },
      kind: "drop-after-commit",
      count: 1,
    });
    const { id } = await newWorkspace("lost_team");
    expect((await env.api.listWorkspaces()).filter((w) => w.name === "lost_team").map((w) => w.id)).toEqual([id]);
    expect(await counter("POST /v2/workspaces")).toBe(1);
  });

  test("an application that cannot be linked leaves the new workspace recorded in state", async () => {
    const error = await workspaceHandler
      .create({ name: "half_team", applications: [SEED_APPS.bobPortfolio], __provider: PROVIDER })
      .then(
        () => undefined,
        (err) => err,
      );
    const [made] = (await env.api.listWorkspaces()).filter((w) => w.name === "half_team");
    expect(error).toMatchObject({ id: made.id, properties: { name: "half_team", __provider: PROVIDER } });
    expect(error.message).toContain("APP_NOT_FOUND");
  });

  test("adoption requires the caller to own it and the name to match", async () => {
    // Made outside the stack: one the stack's own resource holds cannot be adopted at all.
    const { id } = await env.api.createWorkspace("adopt_me");
    await expect(workspaceHandler.create({ name: "other_name", adoptId: id })).rejects.toThrow(
      /set name to "adopt_me"/,
    );
    useAccount(1);
    await expect(
      workspaceHandler.create({ name: "platform_team", adoptId: "f4baa585916f98ab6add6316" }),
    ).rejects.toThrow(
      `adopt workspace "platform_team" (f4baa585916f98ab6add6316): only its owner, account ${env.emulator.accounts[0].accountId}, ` +
        `can do this, and the configured API key is for account ${bob()}. Use the owner's key`,
    );
    useAccount(0);
    const adopted = await workspaceHandler.create({
      name: "adopt_me",
      adoptId: id,
      applications: [SEED_APPS.aliceWebsite],
    });
    expect(adopted.id).toBe(id);
    expect(await counter("POST /v2/workspaces")).toBe(1);
  });

  test("a link whose answer is lost is settled by reading the workspace: sent again only while not linked", async () => {
    const route = { method: "POST", path: "/v2/workspaces/applications" };
    await env.emulator.admin.injectFault({
      match: route,
      kind: "status",
      status: 504,
      code: "GATEWAY_TIMEOUT",
      retryAfter: "0",
      count: 1,
    });
    await env.emulator.admin.injectFault({ match: route, kind: "drop-after-commit", count: 1 });
    const { outs } = await newWorkspace("lossy_links", [SEED_APPS.aliceApi]);
    expect(outs.applications).toEqual([SEED_APPS.aliceApi]);
    // The 504 did nothing, so the link went again; the dropped answer's link had landed, so it did not.
    expect(await counter("POST /v2/workspaces/applications")).toBe(2);
    expect(await counter("GET /v2/workspaces/:id")).toBeGreaterThanOrEqual(2);
  });

  test("state written before 0.1.0 (application objects in applications) refreshes and updates into ids and linkedApplications", async () => {
    const { id, outs } = await newWorkspace("old_state", [SEED_APPS.aliceApi]);
    const stored = { ...outs, applications: outs.linkedApplications, linkedApplications: undefined };
    const refreshed = await workspaceHandler.read(id, stored);
    expect(refreshed.props).toMatchObject({
      applications: [SEED_APPS.aliceApi],
      linkedApplications: [expect.objectContaining({ id: SEED_APPS.aliceApi })],
    });
    const updated = await workspaceHandler.update(id, stored, {
      name: "old_state",
      applications: [SEED_APPS.aliceBot],
    });
    expect(updated.outs).toMatchObject({ applications: [SEED_APPS.aliceBot] });
    await workspaceHandler.delete(id, stored);
    await expect(env.api.getWorkspace(id)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });

  test('a delete whose answer is lost is done, without an "already gone" warning', async () => {
    const { id, outs } = await newWorkspace("lossy_delete");
    await env.emulator.admin.injectFault({
      match: { method: "DELETE", path: "/v2/workspaces" },
      kind: "drop-after-commit",
      count: 1,
    });
    await workspaceHandler.delete(id, outs);
    await expect(env.api.getWorkspace(id)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
    expect(await counter("DELETE /v2/workspaces")).toBe(2);
    expect(env.warnings).toEqual([]);
    // A workspace that was gone before the delete still says so.
    await workspaceHandler.delete(id, outs);
    expect(env.warnings).toEqual([expect.stringContaining("was already gone")]);
  });

  test("a member's key cannot delete it: the error names the owner; the owner's delete of a gone one succeeds", async () => {
    const { id, outs } = await newWorkspace("guarded");
    await env.api.addWorkspaceMember({ workspaceId: id, code: await codeOf(1), group: "admin" });
    useAccount(1);
    await expect(workspaceHandler.delete(id, outs)).rejects.toThrow(
      `delete workspace "guarded" (${id}): only its owner, account ${env.emulator.accounts[0].accountId}, can do this, and the configured API key is for account ${bob()} (PERMISSION_DENIED)`,
    );
    useAccount(0);
    await workspaceHandler.delete(id, outs);
    await workspaceHandler.delete(id, outs);
    await expect(env.api.getWorkspace(id)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });

  test("a refresh reads every workspace and member from one listing; one missing from it is read by id", async () => {
    // Dave's key: a client of its own, so no listing an earlier test left in this process is reused.
    const daveClient = env.clientOf(3);
    const dave = env.emulator.accounts[3].accountId;
    try {
      const made = [];
      for (const name of ["refresh_a", "refresh_b", "refresh_c", "refresh_gone"])
        made.push(await daveClient.createWorkspace(name));
      await daveClient.addWorkspaceMember({ workspaceId: made[0]!.id, code: await codeOf(1), group: "admin" });
      const gone = made.pop()!;
      await daveClient.deleteWorkspace(gone.id);
      await env.emulator.admin.clearRequests();
      useAccount(3);

      const read = await Promise.all([
        ...made.map((w) => workspaceHandler.read(w.id, { name: w.name, owner: dave } as WorkspaceOutputs)),
        workspaceMemberHandler.read(`${made[0]!.id}/${bob()}`, {
          workspaceId: made[0]!.id,
          userId: bob(),
          group: "view",
          workspaceOwner: dave,
        }),
      ]);
      expect(read.map((r) => r.id)).toEqual([...made.map((w) => w.id), `${made[0]!.id}/${bob()}`]);
      expect(read[3]!.props).toMatchObject({ group: "admin" });
      expect(await env.emulator.admin.counters()).toEqual({ "GET /v2/workspaces": 1 });

      expect(await workspaceHandler.read(gone.id, { name: gone.name, owner: dave } as WorkspaceOutputs)).toEqual({
        id: "",
        props: {},
      });
      expect(await counter("GET /v2/workspaces")).toBe(1);
      expect(await counter("GET /v2/workspaces/:id")).toBe(1);
    } finally {
      await daveClient.close();
    }
  });

  test("a read with another account's key is an error, not a deletion", async () => {
    const { id, outs } = await newWorkspace("not_yours");
    useAccount(2);
    await expect(workspaceHandler.read(id, outs)).rejects.toThrow(/another account/);
  });
});

describe("WorkspaceMember", () => {
  const member = (workspaceId: string, group: string, inviteCode?: string, userId?: string) => ({
    workspaceId,
    group,
    inviteCode,
    userId,
    __provider: PROVIDER,
  });

  test("two members added at once to one workspace are never mixed up", async () => {
    const { id } = await newWorkspace("pair");
    // Both codes first, so the two creates really start together.
    const [bobCode, carolCode] = [await codeOf(1), await codeOf(2)];
    const [b, c] = await Promise.all([
      workspaceMemberHandler.create(member(id, "admin", bobCode)),
      workspaceMemberHandler.create(member(id, "view", carolCode)),
    ]);
    expect(b.outs).toMatchObject({ userId: bob(), group: "admin", workspaceOwner: env.emulator.accounts[0].accountId });
    expect(c.outs).toMatchObject({ userId: carol(), group: "view" });
    expect(JSON.stringify([b, c])).not.toMatch(/[0-9a-f]{32}/);
  });

  test.each([
    {
      title: "a lost add is settled by reading the members, never by sending the code again",
      workspace: "lossy",
      lost: { kind: "drop-after-commit", count: 1 },
      sent: 1,
    },
    {
      title: "lost adds that added nobody send the unspent code again, after reading, until one lands",
      workspace: "lossy_reset",
      lost: { kind: "reset", count: 2 },
      sent: 3,
    },
  ] as const)("$title", async ({ workspace, lost, sent }) => {
    const { id } = await newWorkspace(workspace);
    await env.emulator.admin.injectFault({ match: { method: "POST", path: "/v2/workspaces/members" }, ...lost });
    const { outs } = await workspaceMemberHandler.create(member(id, "maintain", await codeOf(1), bob()));
    expect(outs).toMatchObject({ userId: bob(), group: "maintain" });
    expect(await counter("POST /v2/workspaces/members")).toBe(sent);
  });

  test("an add lost on every attempt, with nobody joined, fails and says what the next up does", async () => {
    const { id } = await newWorkspace("lossy_always");
    // Retry-After 0: the client's attempts follow one another without its backoff waits.
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v2/workspaces/members" },
      kind: "status",
      status: 500,
      retryAfter: "0",
      count: 6,
    });
    const code = await codeOf(1);
    const error = await workspaceMemberHandler.create(member(id, "maintain", code, bob())).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(
      /the outcome is unknown .* nobody new had joined after any sending\. Run pulumi up again: it reads the members first/,
    );
    expect(error?.message).not.toContain(code);
    expect(await counter("POST /v2/workspaces/members")).toBe(6);
  });

  test("a member already there is taken over without a code, and their group set", async () => {
    const { id } = await newWorkspace("takeover");
    await env.api.addWorkspaceMember({ workspaceId: id, code: await codeOf(1), group: "view" });
    await env.emulator.admin.clearRequests();
    const { outs } = await workspaceMemberHandler.create(member(id, "manager", undefined, bob()));
    expect(outs).toMatchObject({ userId: bob(), group: "manager" });
    expect(await counter("POST /v2/workspaces/members")).toBe(0);
    expect(await counter("PATCH /v2/workspaces/members")).toBe(1);
  });

  test("a member's key cannot add members: the error names the owner", async () => {
    const { id } = await newWorkspace("owner_adds");
    await env.api.addWorkspaceMember({ workspaceId: id, code: await codeOf(1), group: "admin" });
    useAccount(1);
    await expect(workspaceMemberHandler.create(member(id, "view", await codeOf(2)))).rejects.toThrow(
      `add the invitee to workspace "owner_adds" (${id}): only its owner, account ${env.emulator.accounts[0].accountId}, can do this`,
    );
    expect((await env.api.getWorkspace(id)).members.map((m) => m.id)).not.toContain(carol());
  });

  test("the owner cannot be taken over; refusals of the code are explained", async () => {
    const { id } = await newWorkspace("refusals");
    await expect(
      workspaceMemberHandler.create(member(id, "admin", undefined, env.emulator.accounts[0].accountId)),
    ).rejects.toThrow(/is the owner of workspace "refusals"/);
    await expect(workspaceMemberHandler.create(member(id, "admin", "0".repeat(32)))).rejects.toThrow(
      /INVALID_CODE\): it is invalid, already used or expired.*GET \/v2\/workspaces\/members\/code with their own API key/,
    );
    const expired = await codeOf(2);
    await env.emulator.admin.advanceClock(5 * 60_000 + 1);
    await expect(workspaceMemberHandler.create(member(id, "admin", expired))).rejects.toThrow(/INVALID_CODE/);

    await env.api.addWorkspaceMember({ workspaceId: id, code: await codeOf(1), group: "view" });
    await expect(workspaceMemberHandler.create(member(id, "admin", await codeOf(1)))).rejects.toThrow(
      /MEMBER_ALREADY_ADDED\)\. Set userId to their user id.*Bob Builder/,
    );
  });

  test("a group change is a PATCH; a member removed out of band leaves the state and is already removed for delete", async () => {
    const { id } = await newWorkspace("groups");
    const created = await workspaceMemberHandler.create(member(id, "view", await codeOf(1), bob()));
    const outs = created.outs as WorkspaceMemberOutputs;
    const updated = await workspaceMemberHandler.update(created.id, outs, member(id, "admin", undefined, bob()));
    expect(updated.outs).toMatchObject({ group: "admin", userId: bob() });
    expect((await env.api.getWorkspace(id)).members.find((m) => m.id === bob())?.group).toBe("admin");

    await env.api.removeWorkspaceMember({ workspaceId: id, memberId: bob() });
    const warned = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await workspaceMemberHandler.read(created.id, outs)).toEqual({ id: "", props: {} });
    expect(String(warned.mock.calls[0][0])).toMatch(/no longer a member .* fresh invite code/);
    await expect(workspaceMemberHandler.update(created.id, outs, member(id, "view"))).rejects.toThrow(
      /no longer a member/,
    );
    await workspaceMemberHandler.delete(created.id, outs);
    expect(String(warned.mock.calls[1][0])).toMatch(/was already removed/);
  });

  test("a removal whose answer is lost is this removal, not one made outside Pulumi", async () => {
    const { id } = await newWorkspace("lossy_removal");
    const created = await workspaceMemberHandler.create(member(id, "view", await codeOf(1), bob()));
    await env.emulator.admin.injectFault({
      match: { method: "DELETE", path: "/v2/workspaces/members" },
      kind: "drop-after-commit",
      count: 1,
    });
    await workspaceMemberHandler.delete(created.id, created.outs as WorkspaceMemberOutputs);
    expect((await env.api.getWorkspace(id)).members.map((m) => m.id)).not.toContain(bob());
    expect(await counter("DELETE /v2/workspaces/members")).toBe(2);
    expect(env.warnings).toEqual([]);
  });
});

describe("two resources holding one workspace", () => {
  test("a workspace adopted in this update only leaves the state of the resource that held it before (rename without aliases)", async () => {
    // The rename case: the old resource is not in the program, so this process never saw it.
    const { id: existing } = await env.api.createWorkspace("renamed_team");
    await env.api.addWorkspaceMember({ workspaceId: existing, code: await codeOf(1), group: "view" });
    const adopted = await workspaceHandler.create({ name: "renamed_team", adoptId: existing, __provider: PROVIDER });
    expect(adopted.id).toBe(existing);
    await expect(workspaceHandler.delete(existing, adopted.outs)).resolves.toBeUndefined();
    expect((await env.api.getWorkspace(existing)).members.map((m) => m.id)).toContain(bob());
    expect(await counter("DELETE /v2/workspaces")).toBe(0);
    expect(env.warnings.join("\n")).toContain(
      `workspace "renamed_team" (${existing}) is now held by another resource of this stack`,
    );
  });

  test("a workspace another resource of the stack holds cannot be adopted", async () => {
    const first = await newWorkspace("held_team");
    await expect(
      workspaceHandler.create({ name: "held_team", adoptId: first.id, __provider: PROVIDER }),
    ).rejects.toThrow(`adopt workspace ${first.id}: another resource of this stack already holds it`);
  });

  test("a rename is refused while adoptId still names the workspace", async () => {
    // Adopted in an earlier update: its state records the name and the adoptId.
    const olds = { name: "self_team", adoptId: "ws_self" } as WorkspaceOutputs;
    const existing = "ws_self";
    await expect(workspaceHandler.diff(existing, olds, { name: "self_team_2", adoptId: existing })).rejects.toThrow(
      `workspace "self_team" (${existing}) cannot be replaced (name changed) while adoptId still names it`,
    );
  });
});
