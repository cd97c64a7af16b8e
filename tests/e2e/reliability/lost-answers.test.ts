import { type FaultSpec, SEED_APPS } from "../../../emulator";
import { emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// Lost answers on the real engine: each mutating call of a workspace update is answered once with
// a fault that leaves its outcome unknown (the work done and the answer dropped, or a 504), and
// the one `pulumi up` still ends with the account exactly as the program declares it. The
// provider settles each by reading the service or by the client's own retry, not by failing.

const suite = emulatorSuite();
const account = (index: number) => suite.emulator.accounts[index];
const apps = { website: SEED_APPS.aliceWebsite, api: SEED_APPS.aliceApi, bot: SEED_APPS.aliceBot };

type Roster = {
  workspaces: Record<string, { name: string; applications?: string[] }>;
  members: Record<string, { workspace: string; group: string; userId: string; codeKey: string }>;
};

function rosterConfig(roster: Roster) {
  return {
    workspaces: { value: JSON.stringify(roster.workspaces) },
    members: { value: JSON.stringify(roster.members) },
  };
}

/** Each mutating route of the update, answered once with a fault that hides its outcome. */
const LOST_ANSWERS: FaultSpec[] = [
  // A gateway timeout that did nothing, then a link that landed but whose answer was dropped.
  {
    match: { method: "POST", path: "/v2/workspaces/applications" },
    kind: "status",
    status: 504,
    code: "GATEWAY_TIMEOUT",
    count: 1,
  },
  { match: { method: "POST", path: "/v2/workspaces/applications" }, kind: "drop-after-commit", count: 1 },
  { match: { method: "DELETE", path: "/v2/workspaces/applications" }, kind: "drop-after-commit", count: 1 },
  { match: { method: "PATCH", path: "/v2/workspaces/members" }, kind: "drop-after-commit", count: 1 },
  { match: { method: "DELETE", path: "/v2/workspaces/members" }, kind: "drop-after-commit", count: 1 },
  { match: { method: "DELETE", path: "/v2/workspaces" }, kind: "drop-after-commit", count: 1 },
];

describe("lost answers settle within one pulumi up", () => {
  let program: ProgramStack;
  let teamId: string;
  let spareId: string;

  test("a team with two members, two links and a spare workspace is set up", async () => {
    const bob = account(1).accountId;
    const carol = account(2).accountId;
    const roster: Roster = {
      workspaces: {
        team: { name: "lost_answers", applications: [apps.website, apps.api] },
        spare: { name: "lost_spare" },
      },
      members: {
        bob: { workspace: "team", group: "admin", userId: bob, codeKey: "bobCode" },
        carol: { workspace: "team", group: "view", userId: carol, codeKey: "carolCode" },
      },
    };
    const codes = await inviteCodeConfig(suite.emulator, { bobCode: account(1), carolCode: account(2) });
    program = suite.keep(
      await programStack({
        program: "workspaces",
        config: { ...emulatorConfig(suite.emulator), ...rosterConfig(roster), ...codes },
      }),
    );
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const out = (await program.stack.outputs()).workspaces.value as Record<string, { id: string }>;
    teamId = out.team.id;
    spareId = out.spare.id;
  });

  test("a link, an unlink, a group change, a removal and a workspace delete, each answered with a lost answer", async () => {
    const bob = account(1).accountId;
    await program.stack.setAllConfig(
      rosterConfig({
        workspaces: { team: { name: "lost_answers", applications: [apps.api, apps.bot] } },
        members: { bob: { workspace: "team", group: "maintain", userId: bob, codeKey: "bobCode" } },
      }),
    );
    await suite.emulator.admin.clearRequests();
    for (const fault of LOST_ANSWERS) await suite.emulator.admin.injectFault(fault);

    const up = await program.stack.up();

    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ update: 2, delete: 2, same: 1 });
    expect(await suite.emulator.admin.faults()).toEqual([]);
    // Exactly as declared.
    const team = await suite.api.getWorkspace(teamId);
    expect(team.applications.map((a) => a.id).sort()).toEqual([apps.api, apps.bot].sort());
    expect(team.members.filter((m) => m.group !== "owner").map((m) => [m.id, m.group])).toEqual([[bob, "maintain"]]);
    await expect(suite.api.getWorkspace(spareId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
    // Each call was sent once more and no more: the 504'd link and the dropped link (settled by
    // reading), and each idempotent call retried once by the client.
    expect(await suite.emulator.admin.counters()).toMatchObject({
      "POST /v2/workspaces/applications": 2,
      "DELETE /v2/workspaces/applications": 2,
      "PATCH /v2/workspaces/members": 2,
      "DELETE /v2/workspaces/members": 2,
      "DELETE /v2/workspaces": 2,
    });
    // The provider's own deletes are not reported as done by someone else.
    const said = up.stdout + up.stderr;
    expect(said).not.toMatch(/already gone|already removed|may have taken effect/);
  });

  test("the next preview finds nothing to change", async () => {
    const preview = await program.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 3 });
  });
});
