import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { functions } from "../../provider/functions";
import { components, kinds } from "../../provider/kinds";
import { fill, functionsTable, tables } from "./docs";
import { PackageInfo, packageSchema, schemaText } from "./schema";
import { fileStem, sdkSource } from "./sdk";

/**
 * What the kinds' (and components') declarations generate: each kind's SDK class (sdk/<kind>.ts), the tables
 * of the docs pages, and the native provider plugin's package schema. `npm run gen` writes them;
 * `staleFiles` (run by a unit test) names those that differ from what the declarations give.
 */

/** Where the package schema is checked in, beside the plugin that serves it. */
export const SCHEMA_FILE = "provider/plugin/schema.json";

const root = path.join(__dirname, "..", "..", "..");

/** Every generated file's path (relative to the repository) and content. */
function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const kind of kinds) {
    const hook = existsSync(path.join(root, "sdk", "hooks", `${fileStem(kind)}.ts`));
    files.set(`sdk/${fileStem(kind)}.ts`, sdkSource(kind, hook));
  }
  const generated = Object.assign(functionsTable(functions), ...kinds.map(tables));
  for (const page of markdownFiles("docs")) {
    const text = readFileSync(path.join(root, page), "utf8");
    if (text.includes("<!-- generated: ")) files.set(page, fill(text, generated, page));
  }
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageInfo;
  files.set(SCHEMA_FILE, schemaText(packageSchema(kinds, components, manifest, functions)));
  return files;
}

export function staleFiles(): string[] {
  return [...generatedFiles()].filter(([file, content]) => !existsSync(path.join(root, file)) || readFileSync(path.join(root, file), "utf8") !== content).map(([file]) => file);
}

function markdownFiles(dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(file);
    return entry.name.endsWith(".md") ? [file] : [];
  });
}

if (require.main === module) {
  for (const [file, content] of generatedFiles()) {
    const target = path.join(root, file);
    if (existsSync(target) && readFileSync(target, "utf8") === content) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    console.log(`wrote ${file}`);
  }
}
