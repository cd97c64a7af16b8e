import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { installedToolDir } from "../lib/installed-tool";

/**
 * Where each SDK that Pulumi's code generators write from the package schema is checked in: every
 * file under its directory is generated. The Go SDK's go.mod and go.sum sit one level up, in
 * sdk/go: they pin the module's dependencies and are kept by `go mod tidy`, not generated.
 */
export const LANGUAGE_SDK_DIRS = { python: "sdk/python", go: "sdk/go/squarecloud" } as const;

export type SdkLanguage = keyof typeof LANGUAGE_SDK_DIRS;

export const PYTHON_SDK_DIR = LANGUAGE_SDK_DIRS.python;

/**
 * One language's SDK files (paths relative to its directory) that Pulumi's code generator for it
 * writes from the package schema, run by scripts/sdkgen (SDKGEN_DIR, set by scripts/test, or
 * scripts/install-sdkgen's cached build).
 */
export function languageSdkFiles(language: SdkLanguage, schemaText: string): Map<string, string> {
  const sdkgen = path.join(process.env.SDKGEN_DIR ?? installedToolDir("install-sdkgen", "SDK generator"), "sdkgen");
  const scratch = mkdtempSync(path.join(tmpdir(), "sdkgen-"));
  try {
    const schemaFile = path.join(scratch, "schema.json");
    const outDir = path.join(scratch, language);
    writeFileSync(schemaFile, schemaText);
    execFileSync(sdkgen, [language, schemaFile, outDir], { stdio: ["ignore", "inherit", "inherit"] });
    return new Map(filesUnder(outDir).map((file) => [file, readFileSync(path.join(outDir, file), "utf8")]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every file under dir, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
