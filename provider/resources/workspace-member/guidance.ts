/** What to tell a user who needs a new invite code: the one way to get one. */
export function freshCodeSteps(who: string): string {
  return (
    `To add ${who}: they run GET /v2/workspaces/members/code with their own API key (a code is single use and ` +
    `valid 5 minutes), the owner stores it with \`pulumi config set --secret <the config key this inviteCode comes ` +
    `from> <code>\`, then runs pulumi up within those 5 minutes.`
  );
}

export function describeWho(userId: string | undefined): string {
  return userId === undefined ? "the invitee" : `user ${userId}`;
}
