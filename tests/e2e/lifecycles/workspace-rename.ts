/** What the preview of a workspace rename tells, in either path: it replaces the team, and every member needs a fresh code. */
export function expectRenameWarning(said: string): void {
  for (const words of [
    "REPLACES the workspace",
    "deleted with every member and every application link",
    "FRESH invite code",
  ]) {
    expect(said).toContain(words);
  }
}
