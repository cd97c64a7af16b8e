import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { installedToolDir } from "../lib/installed-tool";

/**
 * Where each SDK that Pulumi's code generators write from the package schema is checked in: every
 * file under its directory is generated. The Go SDK's go.mod and go.sum sit one level up, in
 * sdk/go: they pin the module's dependencies and are kept by `go mod tidy`, not generated. The Java
 * SDK's pom.xml is generated too (scripts/gen/java-pom.ts), beside pulumi-java-gen's sources.
 */
export const LANGUAGE_SDK_DIRS = { python: "sdk/python", go: "sdk/go/squarecloud", java: "sdk/java" } as const;

export type SdkLanguage = keyof typeof LANGUAGE_SDK_DIRS;

export const PYTHON_SDK_DIR = LANGUAGE_SDK_DIRS.python;

/**
 * One language's SDK files (paths relative to its directory) that Pulumi's code generator for it
 * writes from the package schema: scripts/sdkgen for Go and Python (SDKGEN_DIR, set by
 * scripts/test, or scripts/install-sdkgen's cached build), pulumi-java-gen for Java (PULUMI_JAVA_HOST_DIR,
 * or scripts/install-java-host's cached build).
 */
export function languageSdkFiles(language: SdkLanguage, schemaText: string): Map<string, string> {
  const scratch = mkdtempSync(path.join(tmpdir(), "sdkgen-"));
  try {
    const schemaFile = path.join(scratch, "schema.json");
    const outDir = path.join(scratch, language);
    writeFileSync(schemaFile, schemaText);
    const [command, args] =
      language === "java"
        ? javaGenerator(schemaFile, outDir, JSON.parse(schemaText).version)
        : sdkgen(language, schemaFile, outDir);
    execFileSync(command, args, { cwd: scratch, stdio: ["ignore", "inherit", "inherit"] });
    return new Map(filesUnder(outDir).map((file) => [file, readFileSync(path.join(outDir, file), "utf8")]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function sdkgen(language: SdkLanguage, schemaFile: string, outDir: string): [string, string[]] {
  return [
    path.join(process.env.SDKGEN_DIR ?? installedToolDir("install-sdkgen", "SDK generator"), "sdkgen"),
    [language, schemaFile, outDir],
  ];
}

/**
 * pulumi-java-gen writes the sources only (`--build none`: the pom comes from java-pom.ts), versioned
 * as the package only when told (it ignores the schema's version). It takes --out relative to its
 * working directory even when given an absolute path, hence the directory's name alone, run from
 * its parent.
 */
function javaGenerator(schemaFile: string, outDir: string, version: string): [string, string[]] {
  const tools = process.env.PULUMI_JAVA_HOST_DIR ?? installedToolDir("install-java-host", "Java code generator");
  const args = [
    "generate",
    "--schema",
    schemaFile,
    "--out",
    path.basename(outDir),
    "--build",
    "none",
    "--version",
    version,
  ];
  return [path.join(tools, "pulumi-java-gen"), args];
}

/** Every file under dir, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
