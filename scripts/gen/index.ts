import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { functions } from "../../provider/functions";
import { components, kinds } from "../../provider/kinds";
import { componentTables, fill, functionsTable, importTable, tables } from "./docs";
import { javaPom } from "./java-pom";
import { pageExamples } from "./registry-docs";
import { withPackageLinks } from "./repository";
import { PACKAGE_NAME, type PackageInfo, packageSchema, schemaText } from "./schema";
import { filesUnder, LANGUAGE_SDK_DIRS, languageSdkFiles, type SdkLanguage } from "./language-sdks";
import { componentFileStem, fileStem, sdkSource, TYPESCRIPT_SDK_DIR, withDeclaredTexts } from "./sdk";
import { FUNCTIONS_FILE, type DeclaredFunction, functionsSource } from "./sdk-functions";

/**
 * What the kinds', components' and functions' declarations generate: each kind's SDK class
 * (sdk/nodejs/<kind>.ts), the SDK's data sources (sdk/nodejs/functions/generated.ts), the tables of the
 * docs pages, the native provider plugin's package schema, and the Python, Go and Java SDKs
 * generated from that schema (sdk/python/, sdk/go/squarecloud/, sdk/java/), and package.json's
 * links to the repository (scripts/gen/repository.ts). `npm run gen` writes them;
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
  files.set(FUNCTIONS_FILE, functionsSource(declaredFunctions()));
  for (const component of components) {
    const file = `${TYPESCRIPT_SDK_DIR}/${componentFileStem(component)}.ts`;
    files.set(file, withDeclaredTexts(readFileSync(path.join(root, file), "utf8"), component));
  }
  const generated = Object.assign(
    functionsTable(functions),
    importTable(kinds),
    ...kinds.map(tables),
    ...components.map(componentTables),
  );
  for (const page of markdownFiles("docs")) {
    const text = readFileSync(path.join(root, page), "utf8");
    if (text.includes("<!-- generated: ")) files.set(page, fill(text, generated, page));
  }
  const manifestText = readFileSync(path.join(root, "package.json"), "utf8");
  files.set("package.json", withPackageLinks(manifestText));
  const manifest = JSON.parse(manifestText) as PackageInfo;
  const examples = Object.fromEntries(
    kinds.map((kind) => [
      kind.name,
      pageExamples(readFileSync(path.join(root, "docs", "resources", `${fileStem(kind)}.md`), "utf8")),
    ]),
  );
  const schema = schemaText(packageSchema(kinds, components, manifest, functions, examples));
  files.set(SCHEMA_FILE, schema);
  for (const [language, dir] of languageSdks()) {
    for (const [file, content] of languageSdkFiles(language, schema)) files.set(`${dir}/${file}`, content);
  }
  files.set(`${LANGUAGE_SDK_DIRS.java}/pom.xml`, javaPom({ ...manifest, name: `pulumi-${PACKAGE_NAME}` }));
  return files;
}

/** Each function with the module of provider/functions that exports it, which the generated code imports. */
export function declaredFunctions(): DeclaredFunction[] {
  const modules = readdirSync(path.join(root, "provider", "functions"))
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => file.slice(0, -".ts".length));
  const exportsOf = new Map(
    modules.map((module) => [module, Object.values(require(`../../provider/functions/${module}`) as object)]),
  );
  return functions.map((fn) => {
    const module = modules.find((candidate) => exportsOf.get(candidate)!.includes(fn));
    if (module === undefined) throw new Error(`${fn.name} is exported by no module of provider/functions`);
    return { fn, module };
  });
}

function languageSdks(): [SdkLanguage, string][] {
  return Object.entries(LANGUAGE_SDK_DIRS) as [SdkLanguage, string][];
}

/** Files of the language SDKs' directories that the generators no longer write. */
function leftoverFiles(generated: Map<string, string>): string[] {
  return languageSdks().flatMap(([, dir]) => {
    if (!existsSync(path.join(root, dir))) return [];
    return filesUnder(path.join(root, dir))
      .map((file) => `${dir}/${file}`)
      .filter((file) => !generated.has(file));
  });
}

export function staleFiles(): string[] {
  const generated = generatedFiles();
  const differing = [...generated]
    .filter(
      ([file, content]) =>
        !existsSync(path.join(root, file)) || readFileSync(path.join(root, file), "utf8") !== content,
    )
    .map(([file]) => file);
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
