import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { functions } from "../../provider/functions";
import { components, kinds } from "../../provider/kinds";
import { fill, functionsTable, importTable, tables } from "./docs";
import { PackageInfo, packageSchema, schemaText } from "./schema";
import { filesUnder, PYTHON_SDK_DIR, pythonSdkFiles } from "./python";
import { fileStem, sdkSource, TYPESCRIPT_SDK_DIR } from "./sdk";

/**
 * What the kinds', components' and functions' declarations generate: each kind's SDK class
 * (sdk/nodejs/<kind>.ts), the tables of the docs pages, the native provider plugin's package schema, and
 * the Python SDK generated from that schema (sdk/python/). `npm run gen` writes them;
 * `staleFiles` (run by a unit test) names those that differ from what the declarations give.
 */

/** Where the package schema is checked in, beside the plugin that serves it. */
export const SCHEMA_FILE = "provider/plugin/schema.json";

const root = path.join(__dirname, "..", "..", "..");

/** Every generated file's path (relative to the repository) and content. */
function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const kind of kinds) {
    const hook = existsSync(path.join(root, TYPESCRIPT_SDK_DIR, "hooks", `${fileStem(kind)}.ts`));
    files.set(`${TYPESCRIPT_SDK_DIR}/${fileStem(kind)}.ts`, sdkSource(kind, hook));
  }
  const generated = Object.assign(functionsTable(functions), importTable(kinds), ...kinds.map(tables));
  for (const page of markdownFiles("docs")) {
    const text = readFileSync(path.join(root, page), "utf8");
    if (text.includes("<!-- generated: ")) files.set(page, fill(text, generated, page));
  }
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageInfo;
  const schema = schemaText(packageSchema(kinds, components, manifest, functions));
  files.set(SCHEMA_FILE, schema);
  for (const [file, content] of pythonSdkFiles(schema)) files.set(`${PYTHON_SDK_DIR}/${file}`, content);
  return files;
}

/** Files of the Python SDK's directory that the generator no longer writes. */
function leftoverFiles(generated: Map<string, string>): string[] {
  const dir = path.join(root, PYTHON_SDK_DIR);
  if (!existsSync(dir)) return [];
  return filesUnder(dir)
    .map((file) => `${PYTHON_SDK_DIR}/${file}`)
    .filter((file) => !generated.has(file));
}

export function staleFiles(): string[] {
  const generated = generatedFiles();
  const differing = [...generated].filter(([file, content]) => !existsSync(path.join(root, file)) || readFileSync(path.join(root, file), "utf8") !== content).map(([file]) => file);
  return [...differing, ...leftoverFiles(generated)];
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
  const generated = generatedFiles();
  for (const file of leftoverFiles(generated)) {
    rmSync(path.join(root, file));
    console.log(`removed ${file}`);
  }
  for (const [file, content] of generated) {
    const target = path.join(root, file);
    if (existsSync(target) && readFileSync(target, "utf8") === content) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    console.log(`wrote ${file}`);
  }
}
