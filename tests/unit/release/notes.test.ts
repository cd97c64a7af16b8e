import { releaseNotes } from "../../../scripts/release/notes";

const changelog = `# Changelog

Intro.

## [Unreleased]

- Next thing.

## [0.2.0] - 2026-12-01

### Changed

- A thing.

## [0.1.0] - 2026-11-26

- First.
`;

describe("the release notes taken from the changelog", () => {
  test("are the version's section without its heading", () => {
    expect(releaseNotes(changelog, "0.2.0")).toBe("### Changed\n\n- A thing.\n");
    expect(releaseNotes(changelog, "0.1.0")).toBe("- First.\n");
  });

  test("of a pre-release are those of the release it leads to, else the unreleased section", () => {
    expect(releaseNotes(changelog, "0.2.0-rc.1")).toBe("### Changed\n\n- A thing.\n");
    expect(releaseNotes(changelog, "0.3.0-rc.1")).toBe("- Next thing.\n");
  });

  test("of a release the changelog does not describe are an error naming the heading to add", () => {
    expect(() => releaseNotes(changelog, "0.3.0")).toThrow(
      'CHANGELOG.md has no section for 0.3.0 (a heading "## [0.3.0] - <date>")',
    );
  });
});
