import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Read at run time, not imported: importing JSON would make tsc copy package.json into dist/.
 * This file compiles to dist/provider/client/, three levels below the package root.
 */
declare const SQUARECLOUD_BUNDLED_VERSION: string | undefined;

export function packageVersion(): string {
  // The plugin's bundle has no package.json beside it: its build writes the version in.
  if (typeof SQUARECLOUD_BUNDLED_VERSION === "string") return SQUARECLOUD_BUNDLED_VERSION;
  try {
    const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "package.json"), "utf8")) as {
      version?: unknown;
    };
    return typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    return "unknown";
  }
}

export const USER_AGENT = `pulumi-squarecloud/${packageVersion()}`;
