import { readFileSync } from "node:fs";
import * as path from "node:path";
import {
  checkBreakingChanges,
  describe as line,
  lastRelease,
  type RecordedRelease,
} from "../../../scripts/release/recorded";
import { compareSchemas, nextVersion, type PackageSchema } from "../../../scripts/release/schema-compare";
import { repoRoot } from "../../install-script";

// docs/release.md's rules, each shown firing on a copy of the last release's recorded schema; then
// the check that package.json's version and CHANGELOG.md's Breaking entries follow from them, on
// examples and on the repository as it is.

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const last = lastRelease(repoRoot);
const DATABASE = "squarecloud:index:Database";

/** The last release's schema, changed by `edit`, compared with it: each difference as "<level> <where>: <change>". */
function changedBy(edit: (schema: PackageSchema & Required<Pick<PackageSchema, "resources">>) => void): string[] {
  const copy = structuredClone(last.schema) as PackageSchema & Required<Pick<PackageSchema, "resources">>;
  edit(copy);
  return compareSchemas(last.schema, copy).map((difference) => `${difference.level} ${line(difference)}`);
}

describe("a difference from the last release's schema is", () => {
  test("none for the same schema", () => {
    expect(changedBy(() => {})).toEqual([]);
  });

  test("breaking: a property removed, an output or an input", () => {
    expect(
      changedBy((schema) => {
        delete schema.resources[DATABASE].properties?.connectionUrl;
        delete schema.resources[DATABASE].inputProperties?.passwordRotation;
      }),
    ).toEqual([
      "breaking resource Database: input passwordRotation: removed",
      "breaking resource Database: output connectionUrl: removed",
    ]);
  });

  test("breaking: a property renamed (the only removed and the only new one of its type)", () => {
    expect(
      changedBy((schema) => {
        const inputs = schema.resources[DATABASE].inputProperties ?? {};
        inputs.ramMegabytes = inputs.memory;
        delete inputs.memory;
        schema.resources[DATABASE].requiredInputs = ["name", "type", "ramMegabytes"];
      }),
    ).toEqual(["breaking resource Database: input memory: renamed to ramMegabytes"]);
  });

  test("breaking: a resource, a data source or a config variable removed", () => {
    expect(
      changedBy((schema) => {
        delete schema.resources["squarecloud:index:AppFileMove"];
        delete schema.functions?.["squarecloud:index:getApps"];
        delete schema.config?.variables?.skipCredentialsCheck;
      }),
    ).toEqual([
      "breaking config skipCredentialsCheck: removed",
      "breaking resource AppFileMove: removed",
      "breaking data source getApps: removed",
    ]);
  });

  test("breaking: a new required input, and an optional input that becomes required", () => {
    expect(
      changedBy((schema) => {
        const database = schema.resources[DATABASE];
        (database.inputProperties ?? {}).region = { type: "string" };
        database.requiredInputs = [...(database.requiredInputs ?? []), "region", "version"];
      }),
    ).toEqual([
      "breaking resource Database: input version: became required",
      "breaking resource Database: input region: new required input",
    ]);
  });

  test("breaking: a changed type, and a changed default", () => {
    expect(
      changedBy((schema) => {
        const inputs = schema.resources[DATABASE].inputProperties ?? {};
        inputs.memory = { ...inputs.memory, type: "string" };
        inputs.name = { ...inputs.name, default: "db" };
      }),
    ).toEqual([
      "breaking resource Database: input memory: type changed from integer to string",
      'breaking resource Database: input name: default changed from undefined to "db"',
    ]);
  });

  test("breaking: a field that starts to replace; minor: one that stops", () => {
    expect(
      changedBy((schema) => {
        const inputs = schema.resources[DATABASE].inputProperties ?? {};
        inputs.memory = { ...inputs.memory, replaceOnChanges: true };
        inputs.type = { ...inputs.type, replaceOnChanges: false };
      }),
    ).toEqual([
      "breaking resource Database: input memory: a change now replaces the resource",
      "minor resource Database: input type: a change no longer replaces the resource",
    ]);
  });

  test("breaking: a narrower range (an enum's value removed); minor: a wider one", () => {
    const withEnum = (values: string[]) => (schema: PackageSchema) => {
      schema.types = {
        ...schema.types,
        "squarecloud:index:Engine": { type: "string", enum: values.map((value) => ({ value })) },
      };
    };
    const base = structuredClone(last.schema);
    withEnum(["mongo", "redis"])(base);
    const compare = (values: string[]) => {
      const next = structuredClone(base);
      withEnum(values)(next);
      return compareSchemas(base, next).map((difference) => `${difference.level} ${line(difference)}`);
    };
    expect(compare(["redis"])).toEqual(['breaking type Engine: enum value "mongo" removed (a narrower range)']);
    expect(compare(["mongo", "redis", "postgres"])).toEqual(['minor type Engine: enum value "postgres" added']);
  });

  test("breaking: an output no longer always set; minor: an input no longer required", () => {
    expect(
      changedBy((schema) => {
        const database = schema.resources[DATABASE];
        database.required = (database.required ?? []).filter((name) => name !== "memory");
        database.requiredInputs = (database.requiredInputs ?? []).filter((name) => name !== "memory");
      }),
    ).toEqual([
      "breaking resource Database: output memory: no longer always set",
      "minor resource Database: input memory: no longer required",
    ]);
  });

  test("minor: a new resource, a new optional input, a new output; patch: a description", () => {
    expect(
      changedBy((schema) => {
        schema.resources["squarecloud:index:Bucket"] = { inputProperties: { name: { type: "string" } } };
        const database = schema.resources[DATABASE];
        (database.inputProperties ?? {}).region = { type: "string" };
        (database.properties ?? {}).region = { type: "string" };
        database.description = "Another text.";
      }),
    ).toEqual([
      "minor resource Database: input region: new optional",
      "minor resource Database: output region: new",
      "minor resource Bucket: new",
      "patch resource Database: description changed",
    ]);
  });
});

test("the least next version: 0.x takes a breaking change in a minor step, 1.x and later in a major one", () => {
  expect(["breaking", "minor", "patch", undefined].map((level) => nextVersion("0.1.0", level as never))).toEqual([
    "0.2.0",
    "0.2.0",
    "0.1.1",
    "0.1.1",
  ]);
  expect(nextVersion("1.4.2", "breaking")).toBe("2.0.0");
  expect(nextVersion("1.4.2", "minor")).toBe("1.5.0");
});

describe("a breaking difference", () => {
  const release: RecordedRelease = { ...last, version: "0.1.0" };
  const broken = structuredClone(last.schema) as PackageSchema & Required<Pick<PackageSchema, "resources">>;
  delete broken.resources[DATABASE].properties?.connectionUrl;
  const changelog = (sections: string) => `# Changelog\n\n${sections}\n## [0.1.0] - 2026-11-26\n\n- First.\n`;
  const breakingEntry = "### Breaking\n\n- `Database.connectionUrl` removed: read it from the console.\n";

  test("fails the check when package.json's version is not a breaking step from the last release's", () => {
    const check = checkBreakingChanges(
      release,
      broken,
      "0.1.1",
      changelog(`## [0.1.1] - 2026-12-01\n\n${breakingEntry}`),
    );
    expect(check.problems).toEqual([
      "package.json's version 0.1.1 is not a breaking step from 0.1.0: it must be 0.2.0 or later",
    ]);
    expect(
      checkBreakingChanges(release, broken, "0.2.0", changelog(`## [0.2.0] - 2026-12-01\n\n${breakingEntry}`)).problems,
    ).toEqual([]);
  });

  test("fails the check when the changelog's section has no Breaking entry naming it", () => {
    const unreleased = (body: string) => changelog(`## [Unreleased]\n\n${body}\n`);
    expect(
      checkBreakingChanges(release, broken, "0.1.0", unreleased("### Changed\n\n- `Database` reads faster.\n"))
        .problems,
    ).toEqual([
      `CHANGELOG.md's Unreleased section has no "### Breaking" entry, and the schema breaks: resource Database: output connectionUrl: removed`,
    ]);
    expect(
      checkBreakingChanges(release, broken, "0.1.0", unreleased("### Breaking\n\n- `Workspace` moved.\n")).problems,
    ).toEqual([
      `CHANGELOG.md's Unreleased section's "### Breaking" entries do not name: resource Database: output connectionUrl: removed`,
    ]);
    expect(checkBreakingChanges(release, broken, "0.1.0", unreleased(breakingEntry)).problems).toEqual([]);
  });
});

test("the schema as generated, against the last release's: package.json's version and CHANGELOG.md say what its differences ask", () => {
  const check = checkBreakingChanges(
    last,
    JSON.parse(read("provider/plugin/schema.json")) as PackageSchema,
    (JSON.parse(read("package.json")) as { version: string }).version,
    read("CHANGELOG.md"),
  );
  expect(check.problems).toEqual([]);
});
