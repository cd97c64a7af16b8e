import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { SETTINGS } from "../../../provider/config";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/gen/repository";
import { docFiles, type FencedBlock, fencedBlocks, programs, readDoc, section } from "../../doc-blocks";
import { repoRoot } from "../../install-script";

// The documentation's shape: a short README from which every page is at most two clicks away,
// links that lead somewhere, code blocks that say whether they run, the resource pages' slots for
// their generated tables, and the statements of README that the code decides.

/** Short enough to read at once, with the first hour in all five languages. */
const README_MAX_LINES = 210;
/** The guide for changing the code: what a newcomer reads in one sitting; the detail lives in the READMEs it links. */
const CONTRIBUTING_MAX_LINES = 250;
/** The current figures of each bench with their method; earlier runs are in git history. */
const BENCH_README_MAX_LINES = 400;

/** Each resource page and the SDK class its generated tables come from (BlobFolder is a component: its table is written by hand). */
const RESOURCE_PAGES: Record<string, string> = {
  "docs/resources/database.md": "Database",
  "docs/resources/workspace.md": "Workspace",
  "docs/resources/workspace-member.md": "WorkspaceMember",
  "docs/resources/blob-object.md": "BlobObject",
  "docs/resources/blob-folder.md": "BlobFolder",
  "docs/resources/app-snapshot.md": "AppSnapshot",
  "docs/resources/database-restore.md": "DatabaseRestore",
  "docs/resources/app-file-move.md": "AppFileMove",
};

interface Link {
  from: string;
  /** Repository-relative target, without its anchor. */
  file: string;
  anchor?: string;
}

/** The text outside fenced blocks, where headings live. */
function withoutBlocks(file: string): string {
  return readDoc(file).replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, "");
}

/** The text outside fenced blocks and inline code, where links live. */
function prose(file: string): string {
  return withoutBlocks(file).replace(/`[^`\n]*`/g, "");
}

/** Relative links of a file; addresses with a scheme lead outside the repository and are not followed. */
function linksOf(file: string): Link[] {
  return [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => {
      const [relative, anchor] = target.split("#");
      const resolved =
        relative === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), relative));
      return { from: file, file: resolved.replace(/\/$/, ""), anchor };
    });
}

/** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of withoutBlocks(file).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Markdown pages reachable from README.md within `clicks` links, with the clicks each takes. */
function clicksFromReadme(clicks: number): Map<string, number> {
  const reached = new Map([["README.md", 0]]);
  let frontier = ["README.md"];
  for (let depth = 1; depth <= clicks; depth++) {
    frontier = frontier
      .flatMap(linksOf)
      .map((link) => link.file)
      .filter((file) => file.endsWith(".md") && !reached.has(file));
    for (const file of frontier) reached.set(file, depth);
  }
  return reached;
}

test(`README.md stays under ${README_MAX_LINES} lines`, () => {
  expect(readDoc("README.md").split("\n").length).toBeLessThan(README_MAX_LINES);
});

test(`CONTRIBUTING.md stays under ${CONTRIBUTING_MAX_LINES} lines and bench/README.md under ${BENCH_README_MAX_LINES}`, () => {
  expect(readDoc("CONTRIBUTING.md").split("\n").length).toBeLessThan(CONTRIBUTING_MAX_LINES);
  expect(readDoc("bench/README.md").split("\n").length).toBeLessThan(BENCH_README_MAX_LINES);
});

test("CONTRIBUTING.md holds no dated figures and one time of a whole run, cold and warm: timings belong in bench/README.md", () => {
  const text = readDoc("CONTRIBUTING.md");
  expect(text.match(/\b20\d\d-\d\d-\d\d\b/g) ?? []).toEqual([]);
  const wholeRun = /^about \d+ minutes cold \([^)]*\), about \d+ warm \([^)]*\)\.$/gm;
  expect(text.match(wholeRun) ?? []).toHaveLength(1);
  const durations = /\b\d+(?:\.\d+)? ?(?:ms|s|sec|seconds?|min|minutes?|h|hours?)\b/g;
  expect(text.replace(wholeRun, "").match(durations) ?? []).toEqual([]);
});

test("every docs page, and each resource page, is at most two clicks from README.md", () => {
  const reached = clicksFromReadme(2);
  const pages = docFiles().filter((file) => file.startsWith("docs/"));
  expect(pages).toEqual(
    expect.arrayContaining(["docs/README.md", ...Object.keys(RESOURCE_PAGES), "docs/data-sources.md"]),
  );
  expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  expect(reached.get("docs/README.md")).toBe(1);
});

test("every relative link of README.md, CONTRIBUTING.md, the folders' READMEs and docs/ leads to a file, and its anchor to a heading", () => {
  const files = [...docFiles(), "CONTRIBUTING.md", "bench/README.md", "scripts/README.md", "tests/README.md"];
  const broken = files.flatMap(linksOf).filter((link) => {
    const target = path.join(repoRoot, link.file);
    if (!existsSync(target)) return true;
    if (link.anchor === undefined) return false;
    return !statSync(target).isFile() || !anchorsOf(link.file).has(link.anchor);
  });
  expect(broken).toEqual([]);
});

test("every ts, yaml, python, go and java block says whether it runs: a program, a test file, a fragment or a named project file; other blocks carry no mark", () => {
  const blocks = docFiles().flatMap(fencedBlocks);
  const marked = ["ts", "yaml", "python", "go", "java"];
  const at = ({ file, line }: FencedBlock) => `${file}:${line}`;
  expect(
    blocks
      .filter(
        (block) => marked.includes(block.language) && block.marker === undefined && block.projectFile === undefined,
      )
      .map(at),
  ).toEqual([]);
  expect(blocks.filter((block) => !marked.includes(block.language) && block.marker !== undefined).map(at)).toEqual([]);
  // A program is found by its name: one name, one page.
  const owners = new Map<string, Set<string>>();
  for (const { file, marker } of blocks)
    if (marker && marker.kind !== "fragment") owners.set(marker.name, (owners.get(marker.name) ?? new Set()).add(file));
  expect([...owners].filter(([, files]) => files.size > 1)).toEqual([]);
});

test("every YAML program of the docs is a whole project, as copied: it names itself and its runtime", () => {
  const yamlPrograms = docFiles().flatMap((file) => programs(file).filter((program) => program.language === "yaml"));
  expect(yamlPrograms.length).toBeGreaterThan(0);
  expect(
    yamlPrograms
      .filter((program) => !/^name: [\w-]+\nruntime: yaml\n/.test(program.code))
      .map((program) => `${program.file}: ${program.name}`),
  ).toEqual([]);
});

test("every YAML program and fragment names the plugin's release as package.json's version, from the release page", () => {
  const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
    .version;
  const yaml = docFiles().flatMap((file) =>
    fencedBlocks(file)
      .filter((block) => block.language === "yaml")
      .map((block) => ({ at: `${file}:${block.line}`, code: block.code })),
  );
  // A resource option `version: x.y.z` (a database's own version is a quoted property).
  const pins = yaml.flatMap(({ at, code }) =>
    [...code.matchAll(/(?:^\s+|[{,] )version: (\d+\.\d+\.\d+)\b/gm)].map((match) => ({ at, version: match[1] })),
  );
  const urls = yaml.flatMap(({ at, code }) =>
    [...code.matchAll(/pluginDownloadURL: "?([^\s",}]+)/g)].map((match) => ({ at, url: match[1] })),
  );
  expect(pins.length).toBeGreaterThanOrEqual(10);
  expect(pins.filter((pin) => pin.version !== version)).toEqual([]);
  expect(urls.filter((found) => found.url !== PLUGIN_DOWNLOAD_URL)).toEqual([]);
  // Every YAML program that declares resources of the package names where its plugin comes from.
  expect(
    docFiles().flatMap((file) =>
      programs(file)
        .filter(
          (program) =>
            program.language === "yaml" && /type: (squarecloud:|pulumi:providers:squarecloud)/.test(program.code),
        )
        .filter((program) => !program.code.includes("pluginDownloadURL"))
        .map((program) => `${file}: ${program.name}`),
    ),
  ).toEqual([]);
});

/** The kinds the native plugin serves, by token ("squarecloud:index:Database"): these have a YAML, a Python, a Go and a Java example. */
const SERVED_BY_PLUGIN = new Set(
  Object.keys(JSON.parse(readFileSync(path.join(repoRoot, "provider/plugin/schema.json"), "utf8")).resources),
);

/** The heading each program block of a page sits under, by the block's language, in the order the languages first appear. */
function programHeadings(page: string): Record<string, string | undefined> {
  const lines = readDoc(page).split("\n");
  const headings: Record<string, string | undefined> = {};
  for (const block of fencedBlocks(page)) {
    if (block.marker?.kind !== "program") continue;
    headings[block.language] = lines
      .slice(0, block.line - 1)
      .reverse()
      .find((line) => /^#{1,6} /.test(line));
  }
  return headings;
}

test.each(Object.keys(RESOURCE_PAGES))(
  "%s has its example in each language that serves its kind, one program under each language's heading, in that order",
  (page) => {
    const kind = path.basename(page, ".md").replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase());
    const native = SERVED_BY_PLUGIN.has(`squarecloud:index:${kind}`)
      ? { yaml: "### YAML", python: "### Python", go: "### Go", java: "### Java" }
      : {};
    expect(Object.entries(programHeadings(page))).toEqual(Object.entries({ ts: "### TypeScript", ...native }));
    // The tabs are one example: one program name across them.
    expect(new Set(programs(page).map((program) => program.name)).size).toBe(1);
  },
);

test.each(Object.entries(RESOURCE_PAGES))(
  "%s has the slots of its generated inputs and outputs tables",
  (page, kind) => {
    const text = readDoc(page);
    for (const table of ["inputs", "outputs"]) {
      const slot = new RegExp(`<!-- generated: ${table} of (\\w+) -->\\n[\\s\\S]*?<!-- end generated -->`, "g");
      expect([...text.matchAll(slot)].map((match) => match[1])).toEqual([kind]);
    }
  },
);

test("README's two commands are the scripts that exist", () => {
  const commands = [...section("README.md", "Two commands").matchAll(/^bash (scripts\/\w+)/gm)].map(
    (match) => match[1],
  );
  expect(commands).toEqual(["scripts/demo", "scripts/test"]);
  for (const script of commands) expect(existsSync(path.join(repoRoot, script))).toBe(true);
});

test.each(["README.md", "docs/installation-configuration.md"])(
  "%s's configuration table lists every setting the provider reads, with its environment variable",
  (page) => {
    const rows = section(page, "Configuration")
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split(" | "));
    expect(rows.map(([key, env]) => [/`([\w:]+)`/.exec(key)?.[1], env.replace(/`/g, "")])).toEqual(
      Object.values(SETTINGS).map((setting) => [setting.key, setting.env]),
    );
  },
);
