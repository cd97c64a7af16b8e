/**
 * The release notes of `version`: its section of the changelog (a `## <version>` heading, in the
 * Keep a Changelog form `## [0.1.0] - 2026-11-26` or plain), without the heading. A pre-release
 * whose version has no section of its own takes the section of the release it leads to, else
 * `## [Unreleased]`. No section at all is an error: a release says what it changes.
 */
export function releaseNotes(changelog: string, version: string): string {
  const sections = new Map<string, string>();
  for (const section of changelog.split(/^(?=## )/m).slice(1)) {
    const [heading, ...body] = section.split("\n");
    const name = /^##\s+\[?([^\]\s]+)\]?/.exec(heading)?.[1];
    if (name !== undefined) sections.set(name.toLowerCase(), body.join("\n").trim());
  }
  const candidates = [version, version.replace(/-.*$/, ""), ...(version.includes("-") ? ["unreleased"] : [])];
  for (const name of candidates) {
    const notes = sections.get(name.toLowerCase());
    if (notes) return `${notes}\n`;
  }
  throw new Error(`CHANGELOG.md has no section for ${version} (a heading "## [${version}] - <date>")`);
}
