import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/**
 * The dependency rule: each folder imports only from the folders the table below lets it, the
 * table itself runs one way (no folder reaches itself again through it), and no module reaches
 * itself again through its imports. Read from the TypeScript sources' import lines, type-only
 * ones too: a cycle of types is still two files that cannot change alone.
 */

const root = path.join(__dirname, "..", "..", "..", "..");

/**
 * Which folder may import from which, besides itself. A file belongs to the longest folder of the
 * table its path starts with; "tests/" is the helpers directly in tests/ that several suites share.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  // Runs inside the engine's provider process: the SDK, the scripts and the tests are not there.
  provider: [],
  // A model of the service, independent of the provider on purpose: tests hold the two together.
  emulator: [],
  "sdk/nodejs": ["provider"],
  // The generators read the declarations; the demo starts the emulator.
  scripts: ["provider", "sdk/nodejs", "emulator"],
  "tests/": ["provider", "scripts"],
  "tests/unit/helpers": ["provider", "emulator"],
  // The engine, stacks, emulator and machines the end-to-end tests run on.
  "tests/e2e/harness": ["provider", "sdk/nodejs", "emulator", "scripts", "tests/"],
  // The fault runs and the secret scan the reliability tests, other tests and the chaos benchmark share.
  "tests/e2e/reliability": ["provider", "emulator", "scripts", "tests/", "tests/e2e/harness"],
  // What the tests of a kind share across the language paths: programs' shapes and expectations.
  "tests/e2e/lifecycles": [
    "provider",
    "sdk/nodejs",
    "emulator",
    "scripts",
    "tests/",
    "tests/e2e/harness",
    "tests/e2e/reliability",
  ],
  "tests/e2e": [
    "provider",
    "sdk/nodejs",
    "emulator",
    "scripts",
    "tests/",
    "tests/unit/helpers",
    "tests/e2e/harness",
    "tests/e2e/lifecycles",
    "tests/e2e/reliability",
  ],
  // The shared lifecycles against a service reached by its URLs and keys (npm run test:live).
  "tests/live": ["provider", "scripts", "tests/", "tests/e2e/harness", "tests/e2e/lifecycles", "tests/e2e/reliability"],
  // The benchmarks drive the same engine, stacks and fault runs as the end-to-end tests.
  bench: ["provider", "sdk/nodejs", "emulator", "scripts", "tests/", "tests/e2e/harness", "tests/e2e/reliability"],
  "tests/unit": ["provider", "sdk/nodejs", "emulator", "scripts", "bench", "tests/", "tests/unit/helpers"],
  "tests/emulator": ["provider", "emulator", "scripts", "tests/", "tests/unit/helpers"],
};

const FOLDERS = Object.keys(MAY_IMPORT).sort((a, b) => b.length - a.length);
const SCANNED = ["provider", "emulator", "sdk/nodejs", "scripts", "bench", "tests"];

/** The table's folder a repository file belongs to; undefined for the files at the root (package.json). */
function folderOf(file: string): string | undefined {
  const within = FOLDERS.find((folder) => !folder.endsWith("/") && file.startsWith(`${folder}/`));
  if (within !== undefined) return within;
  return FOLDERS.find((folder) => folder.endsWith("/") && path.dirname(file) === folder.slice(0, -1));
}

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(path.join(root, file)).isDirectory()) return sources(file);
    return entry.endsWith(".ts") ? [file] : [];
  });
}

/**
 * The repository files a source imports by a relative path: import and export statements at the
 * start of a line (not the text of generated code a generator holds in a template), and require()
 * and import() calls.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const statements = [...text.matchAll(/^\s*(?:import|export)\s[^;"`]*?from\s*"(\.{1,2}\/[^"]*)"/gm)];
  const bare = [...text.matchAll(/^\s*import\s*"(\.{1,2}\/[^"]*)"/gm)];
  const calls = [...text.matchAll(/(?:require|import)\(\s*"(\.{1,2}\/[^"]*)"\s*\)/g)];
  return [...statements, ...bare, ...calls].map((match) => {
    const target = path.join(path.dirname(file), match[1]);
    const candidates = [`${target}.ts`, path.join(target, "index.ts"), target];
    return (
      candidates.find(
        (candidate) => existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile(),
      ) ?? target
    );
  });
}

const graph = new Map(SCANNED.flatMap(sources).map((file) => [file, importsOf(file)]));

test("every source file belongs to a folder of the table", () => {
  expect([...graph.keys()].filter((file) => folderOf(file) === undefined)).toEqual([]);
});

test("each folder imports only from the folders the table lets it", () => {
  const forbidden = [...graph].flatMap(([file, targets]) => {
    const from = folderOf(file) as string;
    return targets
      .filter((target) => {
        const to = folderOf(target);
        return to !== undefined && to !== from && !MAY_IMPORT[from].includes(to);
      })
      .map((target) => `${file} -> ${target}`);
  });
  expect(forbidden).toEqual([]);
});

test("the table runs one way: no folder reaches itself again through the folders it may import", () => {
  expect(cycles(new Map(Object.entries(MAY_IMPORT).map(([folder, allowed]) => [folder, [...allowed]])))).toEqual([]);
});

test("no import cycle among the modules of any folder", () => {
  expect(cycles(graph)).toEqual([]);
});

/** Each group of nodes that reach one another (Tarjan's strongly connected components of two or more). */
function cycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}
