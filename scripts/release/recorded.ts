import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { releaseNotes } from "./notes";
import {
  compareSchemas,
  compareVersions,
  type Difference,
  highestLevel,
  nextVersion,
  type PackageSchema,
} from "./schema-compare";

/**
 * The releases recorded in the repository, one folder each under tests/fixtures/releases/<version>/:
 * release.json (the version, the commit `npm run release` built it from, the date) and schema.json
 * (the package schema that release shipped), which the breaking-change check compares with.
 */

export const RELEASES_DIR = path.join("tests", "fixtures", "releases");

export interface RecordedRelease {
  version: string;
  commit: string;
  date: string;
  schema: PackageSchema;
}

/** The recorded release of the highest version under root's tests/fixtures/releases. */
export function lastRelease(root: string): RecordedRelease {
  const dir = path.join(root, RELEASES_DIR);
  const versions = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(compareVersions)
    : [];
  const version = versions.at(-1);
  if (version === undefined) throw new Error(`no release recorded under ${RELEASES_DIR}`);
  const read = (file: string) => JSON.parse(readFileSync(path.join(dir, version, file), "utf8"));
  return { ...(read("release.json") as Omit<RecordedRelease, "schema">), schema: read("schema.json") as PackageSchema };
}

/**
 * Records the release of `version` built from `commit`: its schema as that commit holds it
 * (provider/plugin/schema.json, the bytes `npm run release` ships) and its date, the commit's day.
 */
export function recordRelease(root: string, version: string, commit: string): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 });
  const full = git("rev-parse", `${commit}^{commit}`).trim();
  const text = git("show", `${full}:provider/plugin/schema.json`);
  const schema = JSON.parse(text) as PackageSchema;
  if (schema.version !== version)
    throw new Error(`the schema of ${full} is of version ${schema.version}, not ${version}`);
  const dir = path.join(root, RELEASES_DIR, version);
  mkdirSync(dir, { recursive: true });
  const date = git("log", "-1", "--format=%cs", full).trim();
  writeFileSync(path.join(dir, "release.json"), `${JSON.stringify({ version, commit: full, date }, null, 2)}\n`);
  writeFileSync(path.join(dir, "schema.json"), text);
  return dir;
}

export interface BreakingChangeCheck {
  last: string;
  version: string;
  differences: Difference[];
  /** The least version the next release may take. */
  next: string;
  /** What is wrong, empty when nothing is. */
  problems: string[];
}

/**
 * The schema's differences from the last release, and what they ask of the version and the
 * changelog: a breaking difference needs a breaking step (package.json's version at least
 * `next`, once it moves past the last release: between releases it stays at the last one until a
 * release is cut) and a `### Breaking` entry naming what broke, in the changelog section of the
 * version (the Unreleased one until the cut).
 */
export function checkBreakingChanges(
  last: RecordedRelease,
  schema: PackageSchema,
  version: string,
  changelog: string,
): BreakingChangeCheck {
  const differences = compareSchemas(last.schema, schema);
  const level = highestLevel(differences);
  const next = nextVersion(last.version, level);
  const problems: string[] = [];
  const breaking = differences.filter((difference) => difference.level === "breaking");
  if (level !== undefined && compareVersions(version, last.version) > 0 && compareVersions(version, next) < 0)
    problems.push(
      `package.json's version ${version} is not a ${level} step from ${last.version}: it must be ${next} or later`,
    );
  if (breaking.length > 0) {
    const section = compareVersions(version, last.version) > 0 ? version : "Unreleased";
    const entries = breakingEntries(changelog, section);
    const unnamed = breaking.filter((difference) => !entries.includes(`\`${subject(difference)}`));
    if (entries === "")
      problems.push(
        `CHANGELOG.md's ${section} section has no "### Breaking" entry, and the schema breaks: ${breaking.map(describe).join("; ")}`,
      );
    else if (unnamed.length > 0)
      problems.push(
        `CHANGELOG.md's ${section} section's "### Breaking" entries do not name: ${unnamed.map(describe).join("; ")}`,
      );
  }
  return { last: last.version, version, differences, next, problems };
}

/** A difference as one line: `breaking  resource Workspace: output applications: type changed ...`. */
export function describe(difference: Difference): string {
  return `${difference.where}: ${difference.change}`;
}

/**
 * What a Breaking entry must name, in backticks, for a difference: the resource, data source, type
 * or config variable it is in (`Workspace`; `Workspace.applications` starts the same).
 */
function subject(difference: Difference): string {
  return difference.where.split(": ")[0].split(" ").at(-1) ?? difference.where;
}

/** The `### Breaking` part of a changelog section, "" when it has none. */
function breakingEntries(changelog: string, section: string): string {
  let notes: string;
  try {
    notes = releaseNotes(changelog, section);
  } catch {
    return "";
  }
  return /^### Breaking\s*$([\s\S]*?)(?=^### |(?![\s\S]))/m.exec(notes)?.[1]?.trim() ?? "";
}
