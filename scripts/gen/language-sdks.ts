import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { installedToolDir } from "../lib/installed-tool";

/** Where the Python SDK is checked in: every file under it is generated. */
export const PYTHON_SDK_DIR = "sdk/python";

/**
 * The Python SDK's files (paths relative to its directory) that Pulumi's Python code generator
 * writes from the package schema, run by scripts/sdkgen (SDKGEN_DIR, set by scripts/test, or
 * scripts/install-sdkgen's cached build).
 */
export function pythonSdkFiles(schemaText: string): Map<string, string> {
  const sdkgen = path.join(process.env.SDKGEN_DIR ?? installedToolDir("install-sdkgen", "SDK generator"), "sdkgen");
  const scratch = mkdtempSync(path.join(tmpdir(), "sdkgen-"));
  try {
    const schemaFile = path.join(scratch, "schema.json");
    const outDir = path.join(scratch, "python");
    writeFileSync(schemaFile, schemaText);
    execFileSync(sdkgen, ["python", schemaFile, outDir], { stdio: ["ignore", "inherit", "inherit"] });
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
