import { beyondKeyCheck, type EmulatorSuite, emulatorSuite } from "../harness/emulator-env";
import type { TeamService } from "../harness/service-suite";
import { SecretScanner } from "../reliability/secret-scan";
import { type ProgramStack, type ProgramStackOptions, SECRET_SIG, type StateResource } from "../harness/stack";
import { expectRenameWarning } from "./workspace-rename";

/**
 * What a team program of the lifecycle states: a Workspace `team` with its applications and a
 * WorkspaceMember `bob` (user `userId`, in `group`, with the invite code of the stack's secret
 * config key `bobCode`). It exports teamId, owner, applications (the workspace's), bobGroup and
 * bobName (the member's).
 */
export interface Team {
  name: string;
  applications: string[];
  group: string;
  userId: string;
}

export interface TeamProgram extends ProgramStack {
  /** Rewrites the program (a file of the project, or the stack's config) to declare the team. */
  setTeam(team: Team): void | Promise<void>;
  /**
   * True for the TypeScript SDK's dynamic provider: the engine records the stack's whole config as
   * that provider's inputs, plain values in plaintext, so a code there must be set as a secret.
   */
  codeMustBeSecret?: boolean;
}

/** What a language's own tests of the lifecycle's stack reach. */
export interface WorkspaceLifecycleContext<S extends TeamService = EmulatorSuite> {
  suite: S;
  program(): TeamProgram;
  /** The team the program declares at that point. */
  team(): Team;
  /** The id of the workspace the stack holds. */
  teamId(): string;
}

/** Tests a language adds on the lifecycle's stack, so that what it proves beyond the lifecycle costs no stack of its own. */
export interface WorkspaceLifecycleExtras<S extends TeamService = EmulatorSuite> {
  /** After the create and the up that changes nothing; must leave the team as it found it, bob its only member. */
  afterCreate?(context: WorkspaceLifecycleContext<S>): void;
  /** After the team moved to its new name, before the destroy. */
  beforeDestroy?(context: WorkspaceLifecycleContext<S>): void;
}

/**
 * The life of a team (a Workspace and a WorkspaceMember) declared in a program, whatever its
 * language and whichever provider serves it (the TypeScript SDK's dynamic provider, or the native
 * plugin for the others). Defines the tests of the calling file; `open` makes the stack from the
 * first team. `name` is the workspace's first name. `service` is where it runs: the in-process
 * emulator unless given (tests/live gives the live service's); "bob" is its invitee.
 */
export function workspaceLifecycle<S extends TeamService = EmulatorSuite>(
  name: string,
  open: (first: Team, options: Omit<ProgramStackOptions, "program">) => Promise<TeamProgram>,
  extras: WorkspaceLifecycleExtras<S> = {},
  // Without `service`, S is its default, EmulatorSuite: the one case the cast covers.
  service: () => S = emulatorSuite as unknown as () => S,
): void {
  const suite = service();
  const bob = () => suite.invitee();
  const apps = {
    website: () => suite.teamApps()[0],
    api: () => suite.teamApps()[1],
    bot: () => suite.teamApps()[2],
  };
  let program: TeamProgram;
  /** Every invite code the stack was given: none may show in plaintext anywhere. */
  const codes = new SecretScanner();

  let team: Team;
  let teamId: string;

  async function setTeam(next: Team) {
    team = next;
    await program.setTeam(team);
  }

  const context: WorkspaceLifecycleContext<S> = {
    suite,
    program: () => program,
    team: () => team,
    teamId: () => teamId,
  };

  /** The code in the stack's config, spent once the member joined. */
  let spentCode: string;

  /** Bob fetches a fresh code with his own key; the owner sets it in the stack's config. */
  async function freshCode(secret = true): Promise<void> {
    spentCode = await bob().inviteCode();
    codes.add("bob's invite code", spentCode);
    await program.stack.setConfig("bobCode", { value: spentCode, secret });
  }

  /** Live members other than the owner, as { userId: group }. */
  async function liveGroups(workspaceId: string): Promise<Record<string, string>> {
    const workspace = await suite.api.getWorkspace(workspaceId);
    return Object.fromEntries(workspace.members.filter((m) => m.group !== "owner").map((m) => [m.id, m.group]));
  }

  async function liveApplications(workspaceId: string): Promise<string[]> {
    return (await suite.api.getWorkspace(workspaceId)).applications.map((a) => a.id).sort();
  }

  async function mutatingRequests(): Promise<string[]> {
    return (await suite.log.requests()).filter((r) => r.method !== "GET").map((r) => r.route);
  }

  async function stateOf(name: string): Promise<StateResource | undefined> {
    return (await program.resources()).find((resource) => resource.urn.endsWith(`::${name}`));
  }

  /** No invite code in plaintext in the stored state (every file of the backend unless told), the command's output or the request log. */
  async function expectNoCodeShown(said: string, stored = program.backendText()) {
    const requestLog = JSON.stringify(await suite.log.requests());
    expect(codes.scan({ state: stored, output: said, requests: requestLog })).toEqual([]);
    const member = await stateOf("bob");
    expect(member?.inputs?.inviteCode).toMatchObject({
      [SECRET_SIG]: expect.any(String),
      ciphertext: expect.any(String),
    });
    expect(member?.outputs?.inviteCode).toBeUndefined();
  }

  beforeAll(async () => {
    team = { name, applications: [apps.website(), apps.bot()], group: "admin", userId: bob().id };
    program = await open(team, { config: suite.config() });
    suite.keep(program);
  });

  beforeEach(async () => {
    await suite.log.clearRequests();
  });

  test("a preview with the workspace id still unknown plans the team with no request beyond the key check", async () => {
    await freshCode();
    await suite.log.clearRequests();
    const preview = await program.stack.preview();
    expect(preview.changeSummary).toEqual({ create: 3 });
    expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
  });

  test("up creates the workspace, links the applications and adds the member with the code from secret config", async () => {
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    teamId = up.outputs.teamId.value;
    expect(up.outputs.owner.value).toBe(suite.ownerId());
    expect(await liveGroups(teamId)).toEqual({ [bob().id]: "admin" });
    expect(await liveApplications(teamId)).toEqual([apps.website(), apps.bot()].sort());
    expect(up.outputs.applications.value.sort()).toEqual([apps.website(), apps.bot()].sort());
    expect(up.outputs.bobName.value).toBe(bob().name);
    expect((await suite.log.counters())["POST /v2/workspaces/members"]).toBe(1);
    await expectNoCodeShown(up.stdout + up.stderr);
  });

  test("with the spent code still in config and the applications listed in another order, a second up changes nothing and sends nothing", async () => {
    await setTeam({ ...team, applications: [...team.applications].reverse() });
    expect((await program.stack.up()).summary.resourceChanges).toEqual({ same: 3 });
    expect(await mutatingRequests()).toEqual([]);
  });

  extras.afterCreate?.(context);

  test("a group change updates the member in place", async () => {
    await setTeam({ ...team, group: "manager" });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2, update: 1 });
    expect(await liveGroups(teamId)).toEqual({ [bob().id]: "manager" });
    expect(await mutatingRequests()).toEqual(["PATCH /v2/workspaces/members"]);
    expect(up.outputs.bobGroup.value).toBe("manager");
  });

  test("application links follow the program's list in place: missing ones linked, extra ones unlinked", async () => {
    await setTeam({ ...team, applications: [apps.api(), apps.website()] });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2, update: 1 });
    expect(await liveApplications(teamId)).toEqual([apps.api(), apps.website()].sort());
    expect((await mutatingRequests()).sort()).toEqual([
      "DELETE /v2/workspaces/applications",
      "POST /v2/workspaces/applications",
    ]);
    expect(up.outputs.teamId.value).toBe(teamId);
  });

  test("refresh reads an application unlinked outside Pulumi, and the next up links it again", async () => {
    await suite.api.unlinkApplication({ workspaceId: teamId, appId: apps.api() });
    const refresh = await program.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await stateOf("team"))?.outputs?.applications).toEqual([apps.website()]);

    await suite.log.clearRequests();
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2, update: 1 });
    expect(await mutatingRequests()).toEqual(["POST /v2/workspaces/applications"]);
    expect(await liveApplications(teamId)).toEqual([apps.api(), apps.website()].sort());
  });

  test("bad input is refused at preview with the dynamic provider's messages, no code shown and no request", async () => {
    const failure = (run: Promise<unknown>) =>
      run.then(
        () => "",
        (err: Error) => err.message,
      );
    await program.setTeam({ ...team, name: "no spaces allowed", applications: ["x", "x"] });
    let message = await failure(program.stack.preview());
    expect(message).toMatch(/name.*3 to 32 characters.*got "no spaces allowed"/);
    expect(message).toMatch(/applications.*each application once, got \["x"\]/);

    // The member's check runs once the workspace's passes (its id is an input of the member).
    const badCode = "NOT-A-CODE-but-secret-looking-value";
    await program.stack.setConfig("bobCode", { value: badCode, secret: true });
    await program.setTeam({ ...team, group: "owner", userId: "not an id" });
    message = await failure(program.stack.preview());
    expect(message).toMatch(/group.*"owner" cannot be given.*got "owner"/);
    expect(message).toMatch(/inviteCode.*32 hexadecimal characters.*got 35 characters \(hidden: a secret\)/);
    expect(message).toMatch(/userId.*an id of 1 to 64.*got "not an id"/);
    expect(message).not.toContain(badCode);
    expect(beyondKeyCheck(await suite.log.requests())).toEqual([]);
    await expectNoCodeShown(message);

    await program.stack.setConfig("bobCode", { value: spentCode, secret: true });
    await program.setTeam(team);
  });

  test("a rename warns in the preview that it replaces the workspace and every member needs a fresh code", async () => {
    await setTeam({ ...team, name: `${name}_v2` });
    const preview = await program.stack.preview();
    expect(preview.changeSummary).toMatchObject({ replace: 2 });
    expectRenameWarning(preview.stdout + preview.stderr);
  });

  test("with a fresh code, in plain config where the provider allows it, the team moves, the code stays encrypted, and only then is the old workspace deleted", async () => {
    // Set without --secret by mistake: the package schema marks inviteCode secret, so the language
    // host or the generated SDK sends it as a secret and the native plugin's state holds it encrypted.
    await freshCode(program.codeMustBeSecret === true);
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 2 });
    const moved = up.outputs.teamId.value;
    expect(moved).not.toBe(teamId);
    expect(await liveGroups(moved)).toEqual({ [bob().id]: "manager" });
    expect(await liveApplications(moved)).toEqual([apps.api(), apps.website()].sort());
    await expect(suite.api.getWorkspace(teamId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
    teamId = moved;
    // The update's history records the stack's config as set, this plain value too; the state does not.
    await expectNoCodeShown(up.stdout + up.stderr, program.checkpoint());
  });

  extras.beforeDestroy?.(context);

  test("destroy removes the member and the workspace", async () => {
    await program.stack.destroy();
    await expect(suite.api.getWorkspace(teamId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
  });
}
