import type { ConfigMap } from "@pulumi/pulumi/automation";
import { programStack, type ProgramStack, type ProgramStackOptions } from "../harness/stack";
import type { Team, TeamProgram } from "./workspace";

/** The workspaces tests/e2e/programs/workspaces declares, by key, from its config `workspaces`. */
export type WorkspaceSpec = { name: string; applications?: string[]; adoptId?: string };
/** A member that program declares from its config `members`: the invite code from the secret config `codeKey`. */
export type MemberLine = { workspace: string; group: string; userId?: string; codeKey?: string };
export interface Roster {
  workspaces: Record<string, WorkspaceSpec>;
  members: Record<string, MemberLine>;
}

export function rosterConfig(roster: Roster): ConfigMap {
  return {
    workspaces: { value: JSON.stringify(roster.workspaces) },
    members: { value: JSON.stringify(roster.members) },
  };
}

export async function setRoster(program: ProgramStack, roster: Roster) {
  await program.stack.setAllConfig(rosterConfig(roster));
}

/** The lifecycle's team as a roster of the program of tests/e2e/programs/workspaces: workspace `team`, member `bob`. */
export const lifecycleRoster = ({ name, applications, group, userId }: Team): Roster => ({
  workspaces: { team: { name, applications } },
  members: { bob: { workspace: "team", group, userId, codeKey: "bobCode" } },
});

/** The `open` of the team lifecycle for the TypeScript program (the dynamic provider). */
export async function openTeamProgram(
  first: Team,
  options: Omit<ProgramStackOptions, "program">,
): Promise<TeamProgram> {
  const program = await programStack({
    ...options,
    program: "workspaces",
    config: { ...options.config, ...rosterConfig(lifecycleRoster(first)) },
  });
  return { ...program, setTeam: (team) => setRoster(program, lifecycleRoster(team)), codeMustBeSecret: true };
}
