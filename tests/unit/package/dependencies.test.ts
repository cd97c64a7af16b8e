import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/**
 * The dependency rule: imports point down (sdk/ may use provider/, never the reverse) and no
 * module reaches itself again through its imports. Read from the TypeScript sources' import
 * lines, type-only ones too: a cycle of types is still two files that cannot change alone.
 */

const root = path.join(__dirname, "..", "..", "..", "..");
const LAYERS = ["provider", "sdk/nodejs"];

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(path.join(root, file)).isDirectory()) return sources(file);
    return entry.endsWith(".ts") ? [file] : [];
  });
}

/** The repository files a source imports by a relative path. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|require\(|import\()\s*"(\.{1,2}\/[^"]*)"/g)].map(
    (match) => match[1],
  );
  return specifiers.map((specifier) => {
    const target = path.join(path.dirname(file), specifier);
    const candidates = [`${target}.ts`, path.join(target, "index.ts"), target];
    return (
      candidates.find(
        (candidate) => existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile(),
      ) ?? target
    );
  });
}

const graph = new Map(LAYERS.flatMap(sources).map((file) => [file, importsOf(file)]));

test("provider/ imports nothing from sdk/, scripts/, tests/ or the emulator", () => {
  const upward = [...graph].flatMap(([file, targets]) =>
    file.startsWith("provider/")
      ? targets.filter((target) => !target.startsWith("provider/")).map((target) => `${file} -> ${target}`)
      : [],
  );
  expect(upward).toEqual([]);
});

test("sdk/nodejs imports only itself and provider/", () => {
  const outside = [...graph].flatMap(([file, targets]) =>
    file.startsWith("sdk/")
      ? targets.filter((target) => !/^(sdk\/nodejs|provider)\//.test(target)).map((target) => `${file} -> ${target}`)
      : [],
  );
  expect(outside).toEqual([]);
});

test("no import cycle among the modules of provider/ and sdk/nodejs", () => {
  expect(cycles(graph)).toEqual([]);
});

/** Each group of files that import one another (Tarjan's strongly connected components of two or more). */
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
